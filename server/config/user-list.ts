import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Page } from '../../contracts/page.ts';
import type { User } from '../../contracts/users.ts';
import { likePattern } from '../access/scope.ts';
import type { Database } from '../db/schema.ts';
import type { Paging } from '../http/paging.ts';
import { toUser } from '../mappers.ts';

/** A condition on the `users` rows of a list. */
export type UserFilter = (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool>;

/**
 * One page of the users that pass every filter and match the search text (e-mail or name), in
 * id order, with the number of users that match: the one query behind every list of users.
 */
export async function userPage(
  db: Kysely<Database>,
  filters: UserFilter[],
  paging: Paging,
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
    query.selectAll().orderBy('id').limit(paging.pageSize).offset(paging.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map(toUser),
    page: paging.page,
    pageSize: paging.pageSize,
    total: Number(count.total),
  };
}
