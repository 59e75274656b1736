/**
 * The CSV every export writes, the app's list exports and the services' `text/csv` answers alike:
 * one format, so a cell is made safe for a spreadsheet in one place.
 */

/** One CSV column: its header and how a row reads in it (a number stays a number). */
export interface CsvColumn<T> {
  header: string;
  text: (row: T) => string | number;
}

/**
 * Where a spreadsheet may start a formula: at the start of the text, after every character that
 * some spreadsheet splits cells at (`,`; `;` in locales whose decimal mark is a comma; tab) and
 * after a line break (a cell pasted or imported line by line), when what follows is `=`, `+`, `-`
 * or `@` (spaces and line breaks before it too: spreadsheets skip them), a tab or a carriage return.
 */
const FORMULA_START = /(?<=^|[;,\t\r\n])(?=\s*[=+\-@]|[\t\r])/g;

/**
 * One cell. Text: every place where a formula could start gets a `'` (which makes the rest text),
 * and the cell is always quoted, so that no separator inside it splits it in any locale. A number
 * is written as JavaScript writes it (`-12.5`, `0.000001`, `1e-7`: no grouping, a `.` decimal
 * mark), unquoted, so a spreadsheet reads it as a number; a number starts no formula, `-12.5`
 * included. A number that is not finite has no value to write: its cell is empty.
 */
function cell(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = value.replace(FORMULA_START, "'");
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * Rows as RFC 4180 CSV (CRLF line ends, every text cell quoted, quotes doubled), with a header
 * line. Text that a spreadsheet would run as a formula, in a cell or after a `;`, `,` or tab
 * inside one, is kept as text with a leading `'`.
 *
 * @example
 * toCsv([{ n: 'ZZ Semi;=1+1' }], [{ header: 'Name', text: (r) => r.n }]) // '"Name"\r\n"ZZ Semi;\'=1+1"\r\n'
 * toCsv([{ w: -250 }], [{ header: 'W', text: (r) => r.w }]) // '"W"\r\n-250\r\n'
 */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [columns.map((c) => cell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(c.text(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
