import type { Kysely } from 'kysely';
import type { SiteDetails, SiteRole } from '../../contracts/sites.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { toSite } from '../mappers.ts';

/** A site with everyone's access to it and its device count (caller already checked). */
export async function siteDetails(db: Kysely<Database>, id: number): Promise<SiteDetails> {
  const site = await db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
  if (!site) throw notFound('Site');
  const access = await db
    .selectFrom('site_access')
    .innerJoin('users', 'users.id', 'site_access.user_id')
    .select(['site_access.site_id', 'site_access.user_id', 'site_access.roles', 'site_access.access'])
    .select(['users.main_email', 'users.display_name'])
    .where('site_access.site_id', '=', id)
    .orderBy('site_access.user_id')
    .execute();
  const devices = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    ...toSite(site),
    access: access.map((row) => ({
      siteId: row.site_id,
      userId: row.user_id,
      roles: row.roles as SiteRole[],
      access: row.access,
      main_email: row.main_email,
      name: row.display_name,
    })),
    deviceCount: Number(devices.n),
  };
}
