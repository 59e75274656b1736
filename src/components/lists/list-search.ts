/** The URL state every list keeps (`?page=0&q=…&sort=…`); pages count from 0 (specification §9). */
export interface ListSearch {
  page: number;
  q?: string;
  sort?: string;
}

const MAX_PAGE = 1_000_000;

/**
 * A `validateSearch` for a list whose sortable columns are `sortKeys`: a bad page becomes 0, a
 * blank search disappears, an unknown sort is dropped, so a hand-edited URL still shows a page.
 *
 * @example
 * validateSearch: listSearchValidator(['name', 'locality'])
 */
export function listSearchValidator(sortKeys: readonly string[]) {
  return (search: Record<string, unknown>): ListSearch => {
    const page = Number(search.page);
    const q = typeof search.q === 'string' ? search.q.trim().slice(0, 200) : '';
    const sort = typeof search.sort === 'string' ? search.sort : '';
    const result: ListSearch = {
      page: Number.isInteger(page) && page >= 0 && page <= MAX_PAGE ? page : 0,
    };
    if (q) result.q = q;
    if (sortKeys.includes(sort.replace(/^-/, ''))) result.sort = sort;
    return result;
  };
}

/**
 * Sorts the rows of one page by `sort` (`name`, or `-name` for descending) using each column's
 * text; numbers inside text compare as numbers.
 */
export function sortRows<T>(
  rows: T[],
  sort: string | undefined,
  textOf: (row: T, key: string) => string,
): T[] {
  if (!sort) return rows;
  const key = sort.replace(/^-/, '');
  const direction = sort.startsWith('-') ? -1 : 1;
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return [...rows].sort((a, b) => direction * collator.compare(textOf(a, key), textOf(b, key)));
}
