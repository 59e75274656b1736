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
