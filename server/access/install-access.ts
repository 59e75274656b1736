import type { Kysely } from 'kysely';
import { mayInstallOnSite, maySeeSite, seesEverything } from '../../contracts/access-policy.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import type { Viewer } from './scope.ts';

/** A site the caller may install on. */
export interface InstallSite {
  id: number;
  name: string;
}

/** A device the caller may move, rename, replace or take off, with its site. */
export interface InstalledDeviceRow {
  id: number;
  serial: string;
  modelId: string;
  name: string;
  siteId: number;
  siteName: string;
  installedAt: Date;
}

/**
 * A caller's access to one site: whether they see it, and whether they put devices on it, move,
 * rename, replace and take them off, archive the site and hand over its report
 * (`mayInstallOnSite`). A site or device the caller cannot see answers 404 (whether or not it
 * exists); one they see without that right answers 403.
 */
async function siteRights(db: Kysely<Database>, viewer: Viewer, siteId: number) {
  const row = await db
    .selectFrom('sites')
    .leftJoin('site_access', (join) =>
      join.onRef('site_access.site_id', '=', 'sites.id').on('site_access.user_id', '=', viewer.id),
    )
    .select(['sites.id', 'sites.name', 'site_access.roles', 'site_access.access'])
    .where('sites.id', '=', siteId)
    .executeTakeFirst();
  if (!row) return undefined;
  const grant = { roles: row.roles ?? [], access: row.access === true };
  const sees = maySeeSite(viewer, grant);
  const installs = sees && mayInstallOnSite(viewer, grant);
  return { id: row.id, name: row.name, sees, installs };
}

/**
 * The site, when the caller may install on it.
 * @throws {ApiError} 404 when there is no such site or the caller cannot see it; 403
 *   `site_role_forbidden` when they see it without the `installer` role.
 */
export async function requireInstallSite(
  db: Kysely<Database>,
  viewer: Viewer,
  siteId: number,
): Promise<InstallSite> {
  const rights = await siteRights(db, viewer, siteId);
  if (!rights?.sees) throw notFound('Site');
  if (!rights.installs)
    throw forbidden(
      'Putting devices on a site, and changing them, needs the installer role on the site',
      'site_role_forbidden',
    );
  return { id: rights.id, name: rights.name };
}

/**
 * The site, when the caller sees it (to read its records and report).
 * @throws {ApiError} 404 when there is no such site or the caller cannot see it.
 */
export async function requireSeenSite(
  db: Kysely<Database>,
  viewer: Viewer,
  siteId: number,
): Promise<InstallSite> {
  const rights = await siteRights(db, viewer, siteId);
  if (!rights?.sees) throw notFound('Site');
  return { id: rights.id, name: rights.name };
}

/**
 * The installed device with this id, when the caller may change it: an installer (or admin) of
 * its site.
 * @throws {ApiError} 404 when there is no such device or the caller cannot see its site; 409
 *   `device_changed` when it was replaced or taken off a site they see; 403 `site_role_forbidden`
 *   when they see it without the `installer` role.
 */
export async function requireInstalledDevice(
  db: Kysely<Database>,
  viewer: Viewer,
  deviceId: number,
): Promise<InstalledDeviceRow> {
  const device = await db
    .selectFrom('devices')
    .innerJoin('sites', 'sites.id', 'devices.site_id')
    .select([
      'devices.id',
      'devices.serial',
      'devices.model_id',
      'devices.name',
      'devices.site_id',
      'devices.installed_at',
      'sites.name as site_name',
    ])
    .where('devices.id', '=', deviceId)
    .executeTakeFirst();
  if (!device) return refuseRetired(db, viewer, deviceId);
  const rights = await siteRights(db, viewer, device.site_id);
  if (!rights?.sees) throw notFound('Device');
  if (!rights.installs)
    throw forbidden(
      "Changing a device's place on a site needs the installer role on the site",
      'site_role_forbidden',
    );
  return {
    id: device.id,
    serial: device.serial,
    modelId: device.model_id,
    name: device.name,
    siteId: device.site_id,
    siteName: device.site_name,
    installedAt: new Date(device.installed_at),
  };
}

/**
 * A device that left its site answers, to a caller who sees that site, 409 `device_changed` (of
 * several changes of one unit at once, the first took it: ten parallel replaces, one winner);
 * anyone else, and an id that never was, 404.
 * @throws {ApiError} always.
 */
async function refuseRetired(db: Kysely<Database>, viewer: Viewer, deviceId: number): Promise<never> {
  const retired = await db
    .selectFrom('retired_devices')
    .select(['serial', 'site_id', 'reason', 'replaced_by'])
    .where('device_id', '=', deviceId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!retired || !(await visibleSiteIds(db, viewer, [retired.site_id])).has(retired.site_id))
    throw notFound('Device');
  throw new ApiError(
    409,
    'device_changed',
    retired.reason === 'replaced'
      ? `${retired.serial} was replaced by ${retired.replaced_by ?? 'another unit'}; reload to see the site as it is now`
      : `${retired.serial} was taken off its site; reload to see the site as it is now`,
  );
}

/** Which of these sites the caller sees: to name a site in an answer only to those who see it. */
export async function visibleSiteIds(
  db: Kysely<Database>,
  viewer: Viewer,
  siteIds: readonly number[],
): Promise<Set<number>> {
  const ids = [...new Set(siteIds)];
  if (ids.length === 0) return new Set();
  let query = db.selectFrom('sites').select('sites.id').where('sites.id', 'in', ids);
  if (!seesEverything(viewer))
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('site_access')
          .select('site_access.site_id')
          .whereRef('site_access.site_id', '=', 'sites.id')
          .where('site_access.user_id', '=', viewer.id)
          .where('site_access.access', '=', true),
      ),
    );
  const rows = await query.execute();
  return new Set(rows.map((row) => row.id));
}
