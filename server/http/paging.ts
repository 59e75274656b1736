import { z } from 'zod';
import { type ListQuery, listQuerySchema, pageParamSchema } from '../../contracts/page.ts';

/** Page number, size, offset and search text of a list call. */
export interface Paging extends ListQuery {
  page: number;
  offset: number;
}

/** `?page=` (default 0), `?q=` and `?pageSize=` of a list whose path has no page number. */
export const pagedQuery = z.object({ page: pageParamSchema.default(0), ...listQuerySchema.shape });

/** The page number, page size and search text of a list call, and where its page starts. */
export function toPaging({ page, q, pageSize }: { page: number } & ListQuery): Paging {
  return { page, q, pageSize, offset: page * pageSize };
}
