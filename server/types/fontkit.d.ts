/** The part of fontkit (pdfkit's font engine) the report reads: which characters a font draws. */
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function openSync(path: string): Font;
}
