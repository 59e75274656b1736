import type { Kysely } from 'kysely';
import { mayConfigureOnSite, maySeeSite } from '../../contracts/access-policy.ts';
import type { Database } from '../db/schema.ts';
import { forbidden, notFound } from '../http/errors.ts';
import type { Viewer } from './scope.ts';

/** A device found by serial, and what the caller may do with it. */
export interface DeviceRights {
  id: number;
  serial: string;
  modelId: string;
  /** The caller sees the device's site (`maySeeSite`). */
  sees: boolean;
  /** The caller may configure it (`mayConfigureOnSite`): `owner` and `viewer` see it without. */
  configures: boolean;
}

/** The device with this serial and the caller's rights on it; undefined when there is none. */
export async function deviceRights(
  db: Kysely<Database>,
  viewer: Viewer,
  serial: string,
): Promise<DeviceRights | undefined> {
  const row = await db
    .selectFrom('devices')
    .leftJoin('site_access', (join) =>
      join.onRef('site_access.site_id', '=', 'devices.site_id').on('site_access.user_id', '=', viewer.id),
    )
    .select(['devices.id', 'devices.serial', 'devices.model_id', 'site_access.roles', 'site_access.access'])
    .where('devices.serial', '=', serial)
    .executeTakeFirst();
  if (!row) return undefined;
  const grant = { roles: row.roles ?? [], access: row.access === true };
  const sees = maySeeSite(viewer, grant);
  const configures = sees && mayConfigureOnSite(viewer, grant);
  return { id: row.id, serial: row.serial, modelId: row.model_id, sees, configures };
}

/**
 * The device with this serial, when the caller may configure it.
 * @throws {ApiError} 404 when there is no such device or the caller cannot see it (a serial the
 *   caller cannot see is not confirmed to exist); 403 `site_role_forbidden` when the caller sees it
 *   without a configuring role (an owner, a viewer).
 */
export async function requireConfiguringRight(
  db: Kysely<Database>,
  viewer: Viewer,
  serial: string,
  doing: string,
): Promise<DeviceRights> {
  const rights = await deviceRights(db, viewer, serial);
  if (!rights?.sees) throw notFound('Device');
  if (!rights.configures)
    throw forbidden(
      `${doing} needs the installer or configurator role on the device's site`,
      'site_role_forbidden',
    );
  return rights;
}
