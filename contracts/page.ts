import { z } from 'zod';

/** Default number of rows in one page of every list call. */
export const DEFAULT_PAGE_SIZE = 20;
/** Largest page size a caller may ask for with `?pageSize=`. */
export const MAX_PAGE_SIZE = 100;

/** Query string accepted by every list call: `?q=` text search and `?pageSize=`. */
export const listQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** `?sort=` of a list: a key ascending (`name`), or descending with a leading `-` (`-name`). */
export type SortValue<K extends string> = K | `-${K}`;

/**
 * The query of a list that sorts by `keys` on the server, across every page: `listQuerySchema`
 * and `?sort=`. Without `sort` a list keeps its own order (ids); an unknown key answers 400
 * naming `sort`.
 * @example sortedListQuerySchema(['name', 'id']).parse({ sort: '-name' }).sort // '-name'
 */
export function sortedListQuerySchema<const K extends string>(keys: readonly K[]) {
  const values = keys.flatMap((key) => [key, `-${key}`]) as [SortValue<K>, ...SortValue<K>[]];
  return listQuerySchema.extend({ sort: z.enum(values).optional() });
}

/** A sort value split into its key and direction. */
export function parseSort<K extends string>(sort: SortValue<K>): { key: K; descending: boolean } {
  return sort.startsWith('-')
    ? { key: sort.slice(1) as K, descending: true }
    : { key: sort as K, descending: false };
}

/** The `{page}` path segment: a page number counted from 0. */
export const pageParamSchema = z.coerce.number().int().min(0).max(1_000_000);

/**
 * One page of a list: `items`, the page number (from 0), the page size and the total number of
 * rows that match, so a caller knows how many pages there are.
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int().min(0),
    pageSize: z.number().int().min(1),
    total: z.number().int().min(0),
  });
}

/** Shape of any page once parsed. */
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}
