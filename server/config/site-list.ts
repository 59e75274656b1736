import type { Context } from 'hono';
import { likePattern, siteVisible } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import type { AuthVariables } from '../http/guards.ts';
import { readPaging } from '../http/paging.ts';
import { toSite } from '../mappers.ts';
import { listTarget } from './list-target.ts';

/**
 * One page of sites in id order. `attachedOnly` lists the sites the user is attached to
 * (`site-list`); otherwise every site the user may see (`sites/all`). Ordered by the primary key,
 * so a page is an index walk, never a sort of the whole set.
 */
export async function listSites(
  ctx: ServerContext,
  c: Context<{ Variables: AuthVariables }>,
  attachedOnly: boolean,
): Promise<Response> {
  const { caller, target } = await listTarget(ctx, c);
  const paging = readPaging(c);
  let query = ctx.db.selectFrom('sites').where(siteVisible(target, attachedOnly));
  if (caller.id !== target.id && caller.role !== 'admin') query = query.where(siteVisible(caller));
  if (paging.q) {
    const pattern = likePattern(paging.q);
    query = query.where((eb) =>
      eb.or([eb('name', 'ilike', pattern), eb('display_address', 'ilike', pattern)]),
    );
  }
  const [rows, count] = await Promise.all([
    query.selectAll('sites').orderBy('sites.id').limit(paging.pageSize).offset(paging.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return c.json({
    items: rows.map(toSite),
    page: paging.page,
    pageSize: paging.pageSize,
    total: Number(count.total),
  });
}
