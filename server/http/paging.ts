import { type ListQuery, pageParamSchema, parseSort, type SortValue } from '../../contracts/page.ts';

/** Page number, size, offset, search text and sort of a list call. */
export interface Paging<K extends string = string> extends ListQuery {
  page: number;
  offset: number;
  /** The sort asked for; undefined keeps the list's own order (ids). */
  sort?: { key: K; descending: boolean };
}

/** `?page=` (default 0), added to a list's query when its path has no page number: `.extend(pageQuery)`. */
export const pageQuery = { page: pageParamSchema.default(0) };

/** The page number, page size, search text and sort of a list call, and where its page starts. */
export function toPaging<K extends string>({
  page,
  q,
  pageSize,
  sort,
}: { page: number; sort?: SortValue<K> | undefined } & ListQuery): Paging<K> {
  return { page, q, pageSize, offset: page * pageSize, ...(sort && { sort: parseSort(sort) }) };
}
