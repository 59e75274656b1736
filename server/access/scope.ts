import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { SiteRole } from '../../contracts/sites.ts';
import type { UserRole } from '../../contracts/users.ts';
import type { Database } from '../db/schema.ts';
import { forbidden, notFound } from '../http/errors.ts';

/** Whose view a query takes: an id and a role. */
export interface Viewer {
  id: number;
  role: UserRole;
}

/**
 * Sites a viewer may see, as a condition on a query that has `sites` in scope: all for an admin
 * (unless `attachedOnly`), otherwise the sites the viewer holds switched-on access to. Access is
 * read at query time, so changes take effect at once.
 */
export function siteVisible(viewer: Viewer, attachedOnly = false) {
  if (viewer.role === 'admin' && !attachedOnly) return sql<boolean>`true`;
  return sql<boolean>`exists (select 1 from site_access sa where sa.site_id = sites.id and sa.user_id = ${viewer.id} and sa.access)`;
}

/** Users a viewer may see: all for an admin; an installer sees themself and the users they created or were linked to; an owner only themself. */
export function userVisible(eb: ExpressionBuilder<Database, 'users'>, viewer: Viewer) {
  if (viewer.role === 'admin') return sql<boolean>`true`;
  if (viewer.role === 'owner') return eb('users.id', '=', viewer.id);
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
  ]);
}

/** Site roles that manage a site: change its owner and who has access to it. */
export const SITE_MANAGERS: readonly SiteRole[] = ['installer'];
/** Site roles that may change a site's name and address. */
export const SITE_EDITORS: readonly SiteRole[] = ['installer', 'owner'];

/** A caller's access to one site: their site roles, and whether they are an admin. */
export interface SiteAccess {
  roles: string[];
  admin: boolean;
}

/**
 * The caller's own access record on a site, after checking the site exists.
 * @throws {ApiError} 404 when the site does not exist, 403 when the caller may not see it.
 */
export async function requireSiteAccess(
  db: Kysely<Database>,
  viewer: Viewer,
  siteId: number,
): Promise<SiteAccess> {
  const row = await db
    .selectFrom('sites')
    .leftJoin('site_access', (join) =>
      join.onRef('site_access.site_id', '=', 'sites.id').on('site_access.user_id', '=', viewer.id),
    )
    .select(['sites.id', 'site_access.roles', 'site_access.access'])
    .where('sites.id', '=', siteId)
    .executeTakeFirst();
  if (!row) throw notFound('Site');
  if (viewer.role === 'admin') return { roles: row.roles ?? [], admin: true };
  if (!row.access) throw forbidden('You have no access to this site', 'site_forbidden');
  return { roles: row.roles ?? [], admin: false };
}

/** Whether a caller's access to a site lets them act as one of `roles` (an admin always may). */
export function holdsSiteRole(access: SiteAccess, roles: readonly string[]): boolean {
  return access.admin || access.roles.some((role) => roles.includes(role));
}

/**
 * Require that the caller may change a site or who has access to it: an admin, or a user whose
 * switched-on access holds one of `roles`. Answers the caller's access to the site.
 * @throws {ApiError} 404 / 403.
 */
export async function requireSiteRole(
  db: Kysely<Database>,
  viewer: Viewer,
  siteId: number,
  roles: readonly string[],
): Promise<SiteAccess> {
  const access = await requireSiteAccess(db, viewer, siteId);
  if (holdsSiteRole(access, roles)) return access;
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
