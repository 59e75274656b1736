/** Bytes read from hex text, or what is wrong with the text in words a person can act on. */
export type HexResult = { ok: true; bytes: Uint8Array } | { ok: false; message: string };

/**
 * Reads bytes typed as hex: pairs of digits, with or without spaces, commas or `0x` prefixes.
 * @example readTypedHex('01 03 0x00 0a') // { ok: true, bytes: 01 03 00 0a }
 * @example readTypedHex('1 2 3').ok // true: `1 2 3` is 01 02 03, one byte per group
 */
export function readTypedHex(text: string): HexResult {
  const groups = text
    .trim()
    .split(/[\s,;:]+/)
    .filter((group) => group !== '')
    .map((group) => group.replace(/^0x/i, ''));
  const bytes: number[] = [];
  for (const group of groups) {
    if (!/^[0-9a-f]+$/i.test(group))
      return { ok: false, message: `“${group}” is not hex: use the digits 0–9 and the letters A–F.` };
    // One group is one byte when short (`a` = 0a), else a run of byte pairs (`0103000a`).
    const digits = group.length <= 2 ? group.padStart(2, '0') : group;
    if (digits.length % 2 !== 0)
      return { ok: false, message: `“${group}” has an odd number of hex digits: each byte takes two.` };
    for (let i = 0; i < digits.length; i += 2) bytes.push(Number.parseInt(digits.slice(i, i + 2), 16));
  }
  return { ok: true, bytes: Uint8Array.from(bytes) };
}

/**
 * One byte as two upper-case hex digits.
 * @example hexByte(10) // '0A'
 */
export function hexByte(byte: number): string {
  return byte.toString(16).toUpperCase().padStart(2, '0');
}

/**
 * Bytes as space-separated hex pairs.
 * @example toHex(Uint8Array.of(1, 3, 0xc5)) // '01 03 C5'
 */
export function toHex(bytes: ArrayLike<number>): string {
  return Array.from(bytes, hexByte).join(' ');
}

/**
 * An opcode typed as hex (`10`, `0x10`, `a`): one byte, 00–FF.
 * @returns the opcode, or null when the text is not one hex byte
 */
export function parseOpcode(text: string): number | null {
  const digits = text.trim().replace(/^0x/i, '');
  return /^[0-9a-f]{1,2}$/i.test(digits) ? Number.parseInt(digits, 16) : null;
}
