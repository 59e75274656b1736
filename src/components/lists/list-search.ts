/** Rows a page of every list screen shows (Sites, Devices, Users, Site Manager). */
export const LIST_PAGE_SIZE = 50;

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
 * The query of a list call for a list's URL state: page size, search, and the sort the server
 * applies across every page.
 * @example listQuery({ page: 2, sort: '-name' }) // { pageSize: 50, sort: '-name' }
 */
export function listQuery(search: Omit<ListSearch, 'page'>, pageSize = LIST_PAGE_SIZE) {
  return { pageSize, ...(search.q ? { q: search.q } : {}), ...(search.sort ? { sort: search.sort } : {}) };
}
