import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.ts';

/** One media range of an `Accept` header: `text/*;q=0.5` → text, *, 0.5. */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** The media ranges of an `Accept` header; a range that is not `type/subtype` is ignored. */
function mediaRanges(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const [type, subtype, ...rest] = range.split('/');
    if (!type || !subtype || rest.length > 0) continue;
    const qText = params.map((p) => /^q\s*=\s*([\d.]+)$/.exec(p)?.[1]).find((v) => v !== undefined);
    const q = qText === undefined ? 1 : Number(qText);
    ranges.push({ type, subtype, q: Number.isFinite(q) ? Math.min(q, 1) : 0 });
  }
  return ranges;
}

/**
 * How much a client wants `offered` (`text/csv`): the quality of the most specific range that
 * matches it (`text/csv` before `text/*` before `*\/*`), 0 when none does (RFC 9110 §12.5.1).
 */
function quality(ranges: readonly MediaRange[], offered: string): number {
  const [type, subtype] = offered.split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (!best || specificity > best.specificity)) best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}

/**
 * Which of `offered` (in the server's order of preference) to answer for an `Accept` header: the
 * one the client rates highest, the first offered on a tie; the first when there is no header
 * (or none that parses); `undefined` when the client accepts none of them.
 * @example preferredType('text/csv', ['application/json', 'text/csv']) // 'text/csv'
 * @example preferredType('text/*;q=0.5, *\/*;q=0.1', ['application/json', 'text/csv']) // 'text/csv'
 * @example preferredType('image/png', ['application/json', 'text/csv']) // undefined
 */
export function preferredType<T extends string>(
  header: string | undefined,
  offered: readonly [T, ...T[]],
): T | undefined {
  const ranges = mediaRanges(header ?? '');
  if (ranges.length === 0) return offered[0];
  let chosen: { type: T; q: number } | undefined;
  for (const type of offered) {
    const q = quality(ranges, type);
    if (q > 0 && (!chosen || q > chosen.q)) chosen = { type, q };
  }
  return chosen?.type;
}

/**
 * Middleware for a call that answers in several media types: says `Vary: Accept` (a cache keeps
 * one answer per kind asked for) and answers 406 `not_acceptable`, naming the types it has, when
 * the `Accept` header allows none of `offered`. The handler reads its choice with
 * {@link preferredType}.
 */
export function answersIn(offered: readonly [string, ...string[]]): MiddlewareHandler {
  return async (c, next) => {
    c.header('Vary', 'Accept', { append: true });
    if (!preferredType(c.req.header('Accept'), offered))
      throw new ApiError(
        406,
        'not_acceptable',
        `This call answers ${offered.join(' or ')}: ask for one in Accept`,
      );
    await next();
  };
}
