import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import bidiFactory from 'bidi-js';
import { type Font, openSync } from 'fontkit';

/**
 * The report's fonts and how a text is printed in them. Names and values are free text in any
 * script (a site in Cairo, a device named in Hebrew, an installer writing Chinese, an emoji in a
 * name); Roboto, the body font, has Latin, Greek and Cyrillic only, and pdfkit draws nothing for a
 * character its font lacks. So each text is cut into runs by the first font that has each
 * character, right-to-left runs are put in the order a reader sees them, and each run is printed
 * in its own font. pdfkit embeds only the glyphs a report uses.
 *
 * All fonts are SIL Open Font License 1.1 and come as npm packages (TrueType and OpenType, which
 * pdfkit reads): Roboto with pdfmake; Noto Sans Hebrew, Noto Naskh Arabic, Noto Sans SC (Chinese,
 * Japanese kana) and Noto Sans KR (Hangul) from `@embedpdf/fonts-*`; Noto Emoji (monochrome) from
 * `@expo-google-fonts/noto-emoji`. The CJK fonts are 8 MB each: a font is opened only when a text
 * holds a character that the fonts before it lack, so a report without CJK text never reads them.
 */

const require = createRequire(import.meta.url);
const packageDir = (name: string, entry = 'package.json') => dirname(require.resolve(`${name}/${entry}`));
const pdfmakeFonts = join(packageDir('pdfmake'), 'fonts', 'Roboto');
/** `@embedpdf/fonts-*` export only their entry (dist/index.*); the fonts are beside it. */
const embedpdfFonts = (name: string) => join(dirname(require.resolve(name)), '..', 'fonts');
const emojiFonts = packageDir('@expo-google-fonts/noto-emoji');

interface Family {
  name: string;
  normal: string;
  bold: string;
}

/** The families in the order a character is looked up: the first that has it prints it. */
const FAMILIES: readonly Family[] = [
  {
    name: 'Roboto',
    normal: join(pdfmakeFonts, 'Roboto-Regular.ttf'),
    bold: join(pdfmakeFonts, 'Roboto-Medium.ttf'),
  },
  {
    name: 'NotoSansHebrew',
    normal: join(embedpdfFonts('@embedpdf/fonts-hebrew'), 'NotoSansHebrew-Regular.ttf'),
    bold: join(embedpdfFonts('@embedpdf/fonts-hebrew'), 'NotoSansHebrew-Bold.ttf'),
  },
  {
    name: 'NotoNaskhArabic',
    normal: join(embedpdfFonts('@embedpdf/fonts-arabic'), 'NotoNaskhArabic-Regular.ttf'),
    bold: join(embedpdfFonts('@embedpdf/fonts-arabic'), 'NotoNaskhArabic-Bold.ttf'),
  },
  {
    name: 'NotoEmoji',
    normal: join(emojiFonts, '400Regular', 'NotoEmoji_400Regular.ttf'),
    bold: join(emojiFonts, '700Bold', 'NotoEmoji_700Bold.ttf'),
  },
  {
    name: 'NotoSansSC',
    normal: join(embedpdfFonts('@embedpdf/fonts-sc'), 'NotoSansHans-Regular.otf'),
    bold: join(embedpdfFonts('@embedpdf/fonts-sc'), 'NotoSansHans-Bold.otf'),
  },
  {
    name: 'NotoSansKR',
    normal: join(embedpdfFonts('@embedpdf/fonts-kr'), 'NotoSansKR-Regular.otf'),
    bold: join(embedpdfFonts('@embedpdf/fonts-kr'), 'NotoSansKR-Bold.otf'),
  },
];

/** The body font: what a report prints in unless a character needs another. */
export const BODY_FONT = 'Roboto';

/** The families as pdfmake takes them (italics are the upright faces: only Roboto has italics). */
export const REPORT_FONTS = Object.fromEntries(
  FAMILIES.map((family) => [
    family.name,
    family.name === BODY_FONT
      ? {
          normal: family.normal,
          bold: family.bold,
          italics: join(pdfmakeFonts, 'Roboto-Italic.ttf'),
          bolditalics: join(pdfmakeFonts, 'Roboto-MediumItalic.ttf'),
        }
      : { normal: family.normal, bold: family.bold, italics: family.normal, bolditalics: family.bold },
  ]),
);

/** Every file a report may read. */
export const REPORT_FONT_FILES: ReadonlySet<string> = new Set(
  Object.values(REPORT_FONTS).flatMap((faces) => Object.values(faces)),
);

const opened = new Map<string, Font>();
/** A family's face, opened on first use. */
function face(family: number, bold = false): Font | undefined {
  const entry = FAMILIES[family];
  if (!entry) return undefined;
  const file = bold ? entry.bold : entry.normal;
  let font = opened.get(file);
  if (!font) {
    font = openSync(file);
    opened.set(file, font);
  }
  return font;
}
const hasGlyph = (family: number, codePoint: number) =>
  face(family)?.hasGlyphForCodePoint(codePoint) ?? false;

/** The family that prints each character, found once per process. */
const familyOf = new Map<number, number>();
function familyFor(codePoint: number): number {
  let family = familyOf.get(codePoint);
  if (family === undefined) {
    family = FAMILIES.findIndex((_, index) => hasGlyph(index, codePoint));
    // No font has it: the body font prints its "missing" box, so it shows that something is there.
    if (family < 0) family = 0;
    familyOf.set(codePoint, family);
  }
  return family;
}

/**
 * Characters that belong to the one before them and are printed in its font: combining marks
 * (Arabic and Hebrew vowel points, accents), joiners, variation selectors, emoji skin tones and
 * tags.
 */
const MARK = /^\p{M}$/u;
const CLINGING: readonly (readonly [number, number])[] = [
  [0x200c, 0x200d],
  [0xfe00, 0xfe0f],
  [0x1f3fb, 0x1f3ff],
  [0xe0020, 0xe007f],
  [0xe0100, 0xe01ef],
];
const clings = (char: string, codePoint: number) =>
  MARK.test(char) || CLINGING.some(([from, to]) => codePoint >= from && codePoint <= to);
/** Direction controls: the report sets each text's order itself. */
const CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Texts the body font prints whole, as they are (the usual case, so it is cut short). */
const BODY_ONLY = /^[\n\x20-\x7e\u00a0-\u017f]*$/;
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
/** A run fontkit lays out right to left (it reverses its glyphs): its first letter is of such a script. */
const FIRST_LETTER = /[^\p{Script=Common}\p{Script=Inherited}]/u;
const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

const bidi = bidiFactory();

/** One piece of printed text in one font, as pdfmake takes it. */
export interface Run {
  text: string;
  font: string;
}

interface Piece {
  chars: string[];
  family: number;
  level: number;
}

/** Where a text is printed: the width it has (points) and its size, for cutting it into lines. */
export interface Box {
  width: number;
  size: number;
  bold?: boolean;
}

/**
 * A text as runs in the fonts that have its characters, in the order they are seen: right-to-left
 * words (Arabic, Hebrew) stand right to left, numbers and Latin words among them left to right
 * (the Unicode bidirectional algorithm). A text with right-to-left words is cut into lines here
 * when its `box` is known, so that each line is in reading order (the layout would otherwise wrap
 * the text as one line, and the first line printed would be where the text ends); without a box
 * it is taken as one line. A text of Latin letters only is answered as it is.
 * @example printable('Villa 😀') // [{ text: 'Villa ', font: 'Roboto' }, { text: '😀', font: 'NotoEmoji' }]
 */
export function printable(text: string, box?: Box): string | Run[] {
  if (BODY_ONLY.test(text)) return text;
  const clean = text.replace(CONTROLS, '');
  return joinLines(clean.split('\n').flatMap((line) => paragraphLines(line, box)));
}

/** Whether a text reads right to left as a whole (its first letter is Arabic or Hebrew): it is set flush right. */
export function readsRightToLeft(text: string): boolean {
  if (!RIGHT_TO_LEFT.test(text)) return false;
  return (bidi.getEmbeddingLevels(text.replace(CONTROLS, ''), 'auto').paragraphs[0]?.level ?? 0) % 2 === 1;
}

const joinLines = (lines: Run[][]): Run[] =>
  lines.flatMap((runs, index) => (index === 0 ? runs : [{ text: '\n', font: BODY_FONT }, ...runs]));

/** A paragraph (no line breaks) as its printed lines, each as runs in the order they are seen. */
function paragraphLines(paragraph: string, box: Box | undefined): Run[][] {
  const levels = RIGHT_TO_LEFT.test(paragraph)
    ? bidi.getEmbeddingLevels(paragraph, 'auto').levels
    : undefined;
  const mirrored = levels ? bidi.getMirroredCharactersMap(paragraph, levels) : undefined;
  // Cut into pieces of one font, one level and either all spaces or none, in reading order.
  const pieces: Piece[] = [];
  let index = 0;
  for (const char of paragraph) {
    const codePoint = char.codePointAt(0) ?? 0;
    const level = levels?.[index] ?? 0;
    const shown = mirrored?.get(index) ?? char;
    index += char.length;
    const last = pieces.at(-1);
    const space = /\s/.test(char);
    const family = last && clings(char, codePoint) ? last.family : familyFor(codePoint);
    if (last && last.family === family && last.level === level && /\s/.test(last.chars[0] ?? '') === space) {
      last.chars.push(shown);
    } else {
      pieces.push({ chars: [shown], family, level });
    }
  }
  const lines = levels && box ? cutLines(pieces, box) : [pieces];
  return lines.map((line) => lineRuns(reorder(line)));
}

/** How wide a piece prints, in points. */
function widthOf(piece: Piece, box: Box): number {
  const font = face(piece.family, box.bold);
  if (!font) return 0;
  return (font.layout(piece.chars.join('')).advanceWidth * box.size) / font.unitsPerEm;
}

/**
 * The pieces (in reading order) as lines that fit the box: cut at spaces, or between characters
 * where a word alone is wider than the box (Chinese, Japanese and Korean have no spaces).
 */
function cutLines(pieces: Piece[], box: Box): Piece[][] {
  // A little short of the box: the layout measures with kerning of its own.
  const room = box.width * 0.97;
  const lines: Piece[][] = [[]];
  let used = 0;
  const isSpace = (piece: Piece) => /\s/.test(piece.chars[0] ?? '');
  const newLine = () => {
    lines.push([]);
    used = 0;
  };
  for (let start = 0; start < pieces.length; ) {
    // The spaces before a word, then the word: pieces up to the next space.
    let end = start;
    while (end < pieces.length && isSpace(pieces[end] as Piece)) end += 1;
    const spaces = pieces.slice(start, end);
    while (end < pieces.length && !isSpace(pieces[end] as Piece)) end += 1;
    const word = pieces.slice(start + spaces.length, end);
    start = end;
    const spaceWidth = spaces.reduce((sum, piece) => sum + widthOf(piece, box), 0);
    const wordWidth = word.reduce((sum, piece) => sum + widthOf(piece, box), 0);
    const line = lines.at(-1) as Piece[];
    if (line.length > 0 && used + spaceWidth + wordWidth > room) newLine();
    else {
      line.push(...spaces);
      used += spaceWidth;
    }
    if (wordWidth <= room) {
      (lines.at(-1) as Piece[]).push(...word);
      used += wordWidth;
      continue;
    }
    // Wider than a line: character by character.
    for (const piece of word) {
      for (const char of piece.chars) {
        const one: Piece = { chars: [char], family: piece.family, level: piece.level };
        const width = widthOf(one, box);
        if (used > 0 && used + width > room) newLine();
        const current = lines.at(-1) as Piece[];
        const last = current.at(-1);
        if (last && last.family === one.family && last.level === one.level && !isSpace(last))
          last.chars.push(char);
        else current.push(one);
        used += width;
      }
    }
  }
  return lines.filter((line) => line.length > 0);
}

/** One line's pieces in the order they are seen: every stretch at each level and above reversed, from the highest level down to the lowest odd one. */
function reorder(line: Piece[]): Piece[] {
  const pieces = [...line];
  const highest = Math.max(0, ...pieces.map((piece) => piece.level));
  const lowestOdd = Math.min(
    ...pieces.map((piece) => (piece.level % 2 === 1 ? piece.level : Number.POSITIVE_INFINITY)),
  );
  for (let level = highest; level >= lowestOdd; level -= 1) {
    for (let start = 0; start < pieces.length; ) {
      if ((pieces[start]?.level ?? 0) < level) {
        start += 1;
        continue;
      }
      let end = start;
      while (end < pieces.length && (pieces[end]?.level ?? 0) >= level) end += 1;
      pieces.splice(start, end - start, ...pieces.slice(start, end).reverse());
      start = end;
    }
  }
  return pieces;
}

/** Pieces in the order they are seen as runs for the layout. */
function lineRuns(pieces: Piece[]): Run[] {
  const runs: Run[] = [];
  for (const piece of pieces) {
    const font = FAMILIES[piece.family]?.name ?? BODY_FONT;
    // fontkit lays a run of a right-to-left script out right to left by itself; any other run that
    // must read right to left (spaces and punctuation between right-to-left words) is turned here.
    const letter = piece.chars.join('').match(FIRST_LETTER)?.[0];
    const turnedByFontkit = letter !== undefined && RTL_SCRIPT.test(letter);
    const chars = (piece.level % 2 === 1) !== turnedByFontkit ? [...piece.chars].reverse() : piece.chars;
    const last = runs.at(-1);
    // Pieces of one font join up unless fontkit turns either: a right-to-left word stays one run.
    if (last && last.font === font && !turnedByFontkit && !RIGHT_TO_LEFT.test(last.text))
      last.text += chars.join('');
    else runs.push({ text: chars.join(''), font });
  }
  return runs;
}
