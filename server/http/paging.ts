import type { Context } from 'hono';
import { type ListQuery, listQuerySchema, pageParamSchema } from '../../contracts/page.ts';
import { readInput } from './validate.ts';

/** Page number, size, offset and search text of a list call. */
export interface Paging extends ListQuery {
  page: number;
  offset: number;
}

/**
 * Read `{page}` (from the path, or `?page=` when the path has none), `?pageSize=` and `?q=`.
 * @throws {ApiError} 400 naming `page`, `pageSize` or `q`.
 */
export function readPaging(c: Context): Paging {
  const page = readInput(c.req.param('page') ?? c.req.query('page') ?? '0', pageParamSchema, 'page');
  const query = readInput(
    { q: c.req.query('q') || undefined, pageSize: c.req.query('pageSize') },
    listQuerySchema,
    'query',
  );
  return { ...query, page, offset: page * query.pageSize };
}
