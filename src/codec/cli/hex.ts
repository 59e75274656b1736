import { InputError } from './input-error.ts';

/**
 * Bytes from hex text: spaces (or none) between bytes, either case, an optional `0x` in front.
 * @throws InputError naming what is wrong with the text.
 */
export function hexArgument(text: string, what: string): Uint8Array {
  const compact = text.replace(/\s+/g, '').replace(/^0x/i, '');
  if (compact.length === 0) throw new InputError(`${what} is empty`);
  const bad = compact.search(/[^0-9a-fA-F]/);
  if (bad >= 0) throw new InputError(`${what} has a character that is not hex: '${compact[bad]}'`);
  if (compact.length % 2 !== 0) {
    throw new InputError(`${what} has an odd number of hex digits (${compact.length})`);
  }
  const bytes = new Uint8Array(compact.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(compact.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** Lower-case hex, two digits a byte, no separators. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A whole number from decimal or `0x` hex text.
 * @throws InputError when the text is not a whole number.
 */
export function parseWhole(text: string | undefined, what: string): number {
  if (text === undefined) throw new InputError(`${what} is missing`);
  const value = /^0x[0-9a-f]+$/i.test(text)
    ? Number.parseInt(text, 16)
    : /^-?\d+$/.test(text)
      ? Number(text)
      : NaN;
  if (!Number.isSafeInteger(value)) throw new InputError(`${what} '${text}' is not a whole number`);
  return value;
}
