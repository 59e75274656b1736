import { type Kysely, sql } from 'kysely';
import { mayOwnSites } from '../../contracts/access-policy.ts';
import type { SiteRole } from '../../contracts/sites.ts';
import { requireVisibleUser, type Viewer } from '../access/scope.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';

/**
 * A site has one owner: the user named by `sites.owner_id`, who is also the one user holding the
 * site role `owner`. Every call that changes either (`POST /sites`, `PUT /sites/{id}`,
 * `change-roles`) goes through these functions, inside the transaction that writes the site.
 */
export const OWNER: SiteRole = 'owner';

/** Give a site's owner the `owner` site role (access on), keeping any roles they already hold. */
export async function attachOwner(trx: Kysely<Database>, siteId: number, ownerId: number): Promise<void> {
  await trx
    .insertInto('site_access')
    .values({ site_id: siteId, user_id: ownerId, roles: [OWNER], access: true })
    .onConflict((oc) =>
      oc.columns(['site_id', 'user_id']).doUpdateSet({
        roles: sql<string[]>`case when ${OWNER} = any(site_access.roles) then site_access.roles
          else array_append(site_access.roles, ${OWNER}::text) end`,
      }),
    )
    .execute();
}

/**
 * Take the `owner` site role from a replaced owner. With no role left they no longer see the
 * site, so the access record goes too; other roles they hold keep it.
 */
export async function detachOwner(trx: Kysely<Database>, siteId: number, ownerId: number): Promise<void> {
  await trx
    .updateTable('site_access')
    .set({ roles: sql<string[]>`array_remove(roles, ${OWNER}::text)` })
    .where('site_id', '=', siteId)
    .where('user_id', '=', ownerId)
    .execute();
  await trx
    .deleteFrom('site_access')
    .where('site_id', '=', siteId)
    .where('user_id', '=', ownerId)
    .where(sql<boolean>`cardinality(roles) = 0`)
    .execute();
}

/**
 * Check a new owner of a site: an account of role `owner` that the caller may see.
 * @throws {ApiError} 400 naming `field`.
 */
export async function checkOwner(
  q: Kysely<Database>,
  viewer: Viewer,
  ownerId: number | null,
  field = 'ownerId',
): Promise<void> {
  if (ownerId === null) return;
  const owner = await q
    .selectFrom('users')
    .select(['id', 'role'])
    .where('id', '=', ownerId)
    .executeTakeFirst();
  if (!owner || !mayOwnSites(owner))
    throw new ApiError(
      400,
      'invalid_input',
      `${field}: only an owner account can own a site (create one with "New owner")`,
      field,
    );
  await requireVisibleUser(q, viewer, ownerId).catch(() => {
    throw new ApiError(400, 'invalid_input', `${field}: that owner is not yours to attach`, field);
  });
}

/**
 * The site's current owner, with its row locked until the transaction ends, so two owner changes
 * of one site are taken in turn and cannot both detach the same old owner.
 * @throws {ApiError} 404 when the site is gone.
 */
export async function lockSiteOwner(trx: Kysely<Database>, siteId: number): Promise<number | null> {
  const row = await trx
    .selectFrom('sites')
    .select('owner_id')
    .where('id', '=', siteId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Site');
  return row.owner_id;
}

/**
 * Make `ownerId` (or nobody) the site's owner: the site row names them, the old owner loses the
 * `owner` role (and the site, when it was their only role), and the new one holds it.
 * Call inside a transaction that has locked the site with `lockSiteOwner`.
 */
export async function moveOwner(
  trx: Kysely<Database>,
  siteId: number,
  from: number | null,
  to: number | null,
): Promise<void> {
  if (from === to) return;
  await trx
    .updateTable('sites')
    .set({ owner_id: to, updated_at: new Date() })
    .where('id', '=', siteId)
    .execute();
  if (from !== null) await detachOwner(trx, siteId, from);
  if (to !== null) await attachOwner(trx, siteId, to);
}
