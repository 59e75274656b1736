import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { UserSortKey } from '../../contracts/list-sort-keys.ts';
import type { Page } from '../../contracts/page.ts';
import type { User } from '../../contracts/users.ts';
import { likePattern } from '../access/scope.ts';
import type { Database } from '../db/schema.ts';
import type { Paging } from '../http/paging.ts';
import { toUser } from '../mappers.ts';

/** A condition on the `users` rows of a list. */
export type UserFilter = (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool>;

/** What each sort key orders by: text case-insensitively. */
const USER_ORDER = {
  name: sql`lower(display_name)`,
  email: sql`lower(main_email)`,
  role: sql`role`,
  id: sql`id`,
} satisfies Record<UserSortKey, unknown>;

/**
 * One page of the users that pass every filter and match the search text (e-mail or name), in
 * id order or sorted across every page (`?sort=`, ties broken by id), with the number of users
 * that match: the one query behind every list of users.
 */
export async function userPage(
  db: Kysely<Database>,
  filters: UserFilter[],
  paging: Paging<UserSortKey>,
): Promise<Page<User>> {
  let query = db.selectFrom('users');
  for (const filter of filters) query = query.where(filter);
  if (paging.q) {
    const pattern = likePattern(paging.q);
    query = query.where((eb) =>
      eb.or([eb('main_email', 'ilike', pattern), eb('display_name', 'ilike', pattern)]),
    );
  }
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy(USER_ORDER[paging.sort?.key ?? 'id'], paging.sort?.descending ? 'desc' : 'asc')
      .orderBy('id', paging.sort?.descending ? 'desc' : 'asc')
      .limit(paging.pageSize)
      .offset(paging.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map(toUser),
    page: paging.page,
    pageSize: paging.pageSize,
    total: Number(count.total),
  };
}
