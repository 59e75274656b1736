/** One CSV column: its header and how a row reads in it. */
export interface CsvColumn<T> {
  header: string;
  text: (row: T) => string;
}

/**
 * Where a spreadsheet may start a formula: at the start of the text, after every character that
 * some spreadsheet splits cells at (`,`; `;` in locales whose decimal mark is a comma; tab) and
 * after a line break (a cell pasted or imported line by line), when what follows is `=`, `+`, `-`
 * or `@` (spaces and line breaks before it too: spreadsheets skip them), a tab or a carriage return.
 */
const FORMULA_START = /(?<=^|[;,\t\r\n])(?=\s*[=+\-@]|[\t\r])/g;

/**
 * One cell: every place where a formula could start gets a `'` (which makes the rest text), and
 * the cell is always quoted, so that no separator inside it splits it in any locale.
 */
function cell(value: string): string {
  const safe = value.replace(FORMULA_START, "'");
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * Rows as RFC 4180 CSV (CRLF line ends, every cell quoted, quotes doubled), with a header line.
 * Text that a spreadsheet would run as a formula, in a cell or after a `;`, `,` or tab inside
 * one, is kept as text with a leading `'`.
 *
 * @example
 * toCsv([{ n: 'ZZ Semi;=1+1' }], [{ header: 'Name', text: (r) => r.n }]) // '"Name"\r\n"ZZ Semi;\'=1+1"\r\n'
 */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [columns.map((c) => cell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(c.text(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Hands the browser a CSV file to save. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** Largest number of rows one export collects (page by page), so a click cannot run away. */
export const CSV_EXPORT_LIMIT = 10_000;

/**
 * Every row of a list with its current filter, fetched page by page (100 at a time) up to
 * {@link CSV_EXPORT_LIMIT}.
 */
export async function collectAllPages<T>(
  fetchPage: (page: number, pageSize: number) => Promise<{ items: T[]; total: number }>,
): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 0; rows.length < CSV_EXPORT_LIMIT; page += 1) {
    const answer = await fetchPage(page, 100);
    rows.push(...answer.items);
    if (answer.items.length === 0 || rows.length >= answer.total) break;
  }
  return rows.slice(0, CSV_EXPORT_LIMIT);
}
