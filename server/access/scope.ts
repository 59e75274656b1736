import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import {
  type Actor,
  isManager,
  maySeeSite,
  RUNNING_COMPANY,
  type SiteGrant,
  seesEverything,
} from '../../contracts/access-policy.ts';
import type { Database } from '../db/schema.ts';
import { forbidden, notFound } from '../http/errors.ts';

/** Whose view a query takes: an actor of the access policy (contracts/access-policy.ts). */
export type Viewer = Actor;

/**
 * Sites a viewer may see, as a condition on a query that has `sites` in scope: all for one who
 * sees everything (unless `attachedOnly`), otherwise the sites the viewer holds switched-on access
 * to. Access is read at query time, so changes take effect at once.
 */
export function siteVisible(viewer: Viewer, attachedOnly = false) {
  if (seesEverything(viewer) && !attachedOnly) return sql<boolean>`true`;
  return sql<boolean>`exists (select 1 from site_access sa where sa.site_id = sites.id and sa.user_id = ${viewer.id} and sa.access)`;
}

/**
 * Users a viewer may see: all for one who sees everything; a manager (installer) sees themself,
 * the users they created or were linked to, and, running an installer company, its members; an
 * owner only themself.
 */
export function userVisible(eb: ExpressionBuilder<Database, 'users'>, viewer: Viewer) {
  if (seesEverything(viewer)) return sql<boolean>`true`;
  if (!isManager(viewer)) return eb('users.id', '=', viewer.id);
  return eb.or([
    eb('users.id', '=', viewer.id),
    eb('users.created_by', '=', viewer.id),
    eb.exists(
      eb
        .selectFrom('user_installers')
        .select(sql`1`.as('one'))
        .whereRef('user_installers.user_id', '=', 'users.id')
        .where('user_installers.installer_id', '=', viewer.id),
    ),
    eb.exists(
      eb
        .selectFrom('company_members as them')
        .innerJoin('company_members as me', 'me.company_id', 'them.company_id')
        .select(sql`1`.as('one'))
        .whereRef('them.user_id', '=', 'users.id')
        .where('me.user_id', '=', viewer.id)
        .where('me.role', 'in', [...RUNNING_COMPANY]),
    ),
  ]);
}

/**
 * The caller's own access record on a site, after checking the site exists and they see it.
 * @throws {ApiError} 404 when the site does not exist or the caller holds no record of it, 403 when
 *   their access to it is switched off.
 */
export async function requireSiteAccess(
  db: Kysely<Database>,
  viewer: Viewer,
  siteId: number,
): Promise<SiteGrant> {
  const row = await db
    .selectFrom('sites')
    .leftJoin('site_access', (join) =>
      join.onRef('site_access.site_id', '=', 'sites.id').on('site_access.user_id', '=', viewer.id),
    )
    .select(['sites.id', 'site_access.roles', 'site_access.access'])
    .where('sites.id', '=', siteId)
    .executeTakeFirst();
  if (!row) throw notFound('Site');
  const grant = { roles: row.roles ?? [], access: row.access === true };
  if (maySeeSite(viewer, grant)) return grant;
  // A site the caller holds no record of is not theirs to know of (another company's, one handed
  // away, one they were removed from): as unknown as one that does not exist. One whose access
  // was switched off they know: they are told so.
  if (row.roles === null) throw notFound('Site');
  throw forbidden('You have no access to this site', 'site_forbidden');
}

/**
 * Require that the policy lets the caller act on a site (`may` is one of the policy's site
 * questions, e.g. `mayEditSite`). Answers the caller's access to the site.
 * @throws {ApiError} 404 / 403.
 */
export async function requireSiteRight(
  db: Kysely<Database>,
  viewer: Viewer,
  siteId: number,
  may: (actor: Actor, grant: SiteGrant) => boolean,
): Promise<SiteGrant> {
  const grant = await requireSiteAccess(db, viewer, siteId);
  if (may(viewer, grant)) return grant;
  throw forbidden('Your role on this site does not allow this', 'site_role_forbidden');
}

/**
 * Load a user the caller may see.
 * @throws {ApiError} 404 when there is no such user, 403 when it is not the caller's to see.
 */
export async function requireVisibleUser(db: Kysely<Database>, viewer: Viewer, userId: number) {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound('User');
  const visible = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where((eb) => userVisible(eb, viewer))
    .executeTakeFirst();
  if (!visible) throw forbidden('This user is not yours to see', 'user_forbidden');
  return user;
}

/** Escape `%`, `_` and `\` so a search text matches literally inside ILIKE. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
