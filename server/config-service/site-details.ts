import type { Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { SiteDetails, SiteRole } from '../../contracts/sites.ts';
import { userVisible, type Viewer } from '../access/scope.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { toSite } from '../mappers.ts';

/**
 * A site with the access to it that the caller may know of, and its device count (the caller's
 * access to the site is already checked), in one statement: the access rows come as a JSON array,
 * the count from the trigger-kept column. Only users the caller may see are listed, and users
 * whose access is switched off only to a caller who manages the site's access (`managesAccess`:
 * an admin or the site's installer), who needs them to switch it back on.
 */
export async function siteDetails(
  db: Kysely<Database>,
  id: number,
  viewer: Viewer,
  managesAccess: boolean,
): Promise<SiteDetails> {
  const site = await db
    .selectFrom('sites')
    .selectAll('sites')
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom('site_access')
          .innerJoin('users', 'users.id', 'site_access.user_id')
          .select(['site_access.site_id', 'site_access.user_id', 'site_access.roles', 'site_access.access'])
          .select(['users.main_email', 'users.display_name'])
          .whereRef('site_access.site_id', '=', 'sites.id')
          .where((inner) => userVisible(inner, viewer))
          .$if(!managesAccess, (q) => q.where('site_access.access', '=', true))
          .orderBy('site_access.user_id'),
      ).as('access'),
    )
    .where('sites.id', '=', id)
    .executeTakeFirst();
  if (!site) throw notFound('Site');
  return {
    ...toSite(site),
    access: site.access.map((row) => ({
      siteId: row.site_id,
      userId: row.user_id,
      roles: row.roles as SiteRole[],
      access: row.access,
      main_email: row.main_email,
      name: row.display_name,
    })),
    deviceCount: site.device_count,
  };
}
