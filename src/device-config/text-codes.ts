/**
 * Text held one code per item (a `cts` step: a device's name in `name_00`…`name_11`). Items of one
 * byte hold the text's UTF-8 bytes, so a name may use the letters of every language ("Müller WR":
 * the ü takes two items); wider items hold one code point each. Reading is as the specification
 * says (character codes to a string, negatives and nulls dropped), with one addition: codes that
 * are all bytes and make well-formed UTF-8 with a letter beyond ASCII are read as UTF-8. Any other
 * codes read as code points, as before, so a name a device wrote in Latin-1 still reads as written.
 */

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const ENCODE = new TextEncoder();

/**
 * The text that character codes hold (negatives and nulls already dropped by the caller).
 * @example textOfCodes([77, 195, 188, 108, 108, 101, 114]) // 'Müller'
 * @example textOfCodes([77, 252, 108, 108, 101, 114]) // 'Müller' (Latin-1, not UTF-8)
 */
export function textOfCodes(codes: readonly number[]): string {
  if (codes.every((code) => code <= 0xff) && codes.some((code) => code >= 0x80)) {
    try {
      return UTF8.decode(Uint8Array.from(codes));
    } catch {
      // Not UTF-8: each code is a character of its own.
    }
  }
  return String.fromCodePoint(...codes);
}

/**
 * The codes to write for `text` into items of one byte each (`bytes`: its UTF-8) or wider ones
 * (its code points).
 * @example codesOfText('Müller', true) // [77, 195, 188, 108, 108, 101, 114]
 */
export function codesOfText(text: string, bytes: boolean): number[] {
  return bytes ? [...ENCODE.encode(text)] : [...text].map((c) => c.codePointAt(0) ?? 0);
}
