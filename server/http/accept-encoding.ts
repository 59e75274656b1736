/** The content codings this server produces, best first. */
export type Coding = 'br' | 'gzip';
const CODINGS: readonly Coding[] = ['br', 'gzip'];

/** Quality of each coding a client accepts (`br;q=0.8, gzip` → br 0.8, gzip 1). */
export function acceptedCodings(header: string | undefined): Map<string, number> {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(token, q === undefined ? 1 : Number(q));
  }
  return accepted;
}

/**
 * The codings to try for an `Accept-Encoding` header, best first: higher quality first, brotli
 * before gzip on a tie; a coding at q=0 (or absent, with no `*`) is never chosen.
 * @example preferredCodings('gzip, br;q=0.5') // ['gzip', 'br']
 */
export function preferredCodings(header: string | undefined): Coding[] {
  const accepted = acceptedCodings(header);
  const quality = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  return CODINGS.filter((name) => quality(name) > 0).sort((a, b) => quality(b) - quality(a));
}

/** Add `Accept-Encoding` to a Vary header value, once. */
export function varyOnEncoding(current: string | null): string {
  if (!current) return 'Accept-Encoding';
  if (current === '*' || /(^|,)\s*accept-encoding\s*(,|$)/i.test(current)) return current;
  return `${current}, Accept-Encoding`;
}
