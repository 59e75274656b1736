/** The part of fontkit (pdfkit's font engine) the report reads: which characters a font draws, and how wide a text is. */
declare module 'fontkit' {
  export interface Font {
    readonly unitsPerEm: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    layout(text: string): { advanceWidth: number };
  }
  export function openSync(path: string): Font;
}
