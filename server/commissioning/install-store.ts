import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Device } from '../../contracts/devices.ts';
import type { InstalledDeviceRow } from '../access/install-access.ts';
import type { Principal } from '../auth/access-tokens.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';

// The queries of putting devices on sites, taking them off and changing them (install, claim, replace).

type DeviceRow = Selectable<Database['devices']>;

/** The site a serial is installed on now, if any. */
export function siteOfSerial(
  db: Kysely<Database>,
  serial: string,
): Promise<{ siteId: number; siteName: string } | undefined> {
  return db
    .selectFrom('devices')
    .innerJoin('sites', 'sites.id', 'devices.site_id')
    .select(['devices.site_id as siteId', 'sites.name as siteName'])
    .where('devices.serial', '=', serial)
    .executeTakeFirst();
}

/**
 * The site a device is being put on, locked against archiving for the rest of the transaction:
 * an archive running at the same moment either finishes first (the site is gone: 404) or waits
 * and then finds the device on it (409 `site_has_devices`).
 * @throws {ApiError} 404 when the site was archived meanwhile.
 */
export async function holdSite(trx: Kysely<Database>, siteId: number): Promise<void> {
  const site = await trx
    .selectFrom('sites')
    .select('id')
    .where('id', '=', siteId)
    .forShare()
    .executeTakeFirst();
  if (!site) throw notFound('Site');
}

/** A device put on a site (the unique serial index refuses one that is on a site already). */
export function insertDevice(
  trx: Kysely<Database>,
  values: Insertable<Database['devices']>,
): Promise<DeviceRow> {
  return trx.insertInto('devices').values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * A device moved to another site, renamed, or both; it keeps its install date (it was installed
 * once, whichever site it is on now).
 * @throws {ApiError} 404 when it left its site meanwhile.
 */
export async function updateDevice(
  trx: Kysely<Database>,
  deviceId: number,
  change: { siteId?: number; name?: string },
): Promise<DeviceRow> {
  const row = await trx
    .updateTable('devices')
    .set({
      ...(change.siteId !== undefined && { site_id: change.siteId }),
      ...(change.name !== undefined && { name: change.name }),
    })
    .where('id', '=', deviceId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Device');
  return row;
}

/**
 * Take a device off its site: it leaves `devices` for `retired_devices`, its history stays. The
 * row is deleted first: of several calls that change one unit at once (ten replaces of it), the
 * one whose delete takes the row wins and every other finds it gone.
 * @throws {ApiError} 409 `device_changed` when the unit left its site meanwhile.
 */
export async function retireDevice(
  trx: Kysely<Database>,
  by: Principal,
  device: InstalledDeviceRow,
  reason: 'removed' | 'replaced',
  replacedBy: string | null,
): Promise<void> {
  const taken = await trx
    .deleteFrom('devices')
    .where('id', '=', device.id)
    .returning('id')
    .executeTakeFirst();
  if (!taken)
    throw new ApiError(
      409,
      'device_changed',
      `${device.serial} was replaced or taken off its site meanwhile; reload to see the site as it is now`,
    );
  await trx
    .insertInto('retired_devices')
    .values({
      device_id: device.id,
      serial: device.serial,
      model_id: device.modelId,
      name: device.name,
      site_id: device.siteId,
      site_name: device.siteName,
      installed_at: device.installedAt,
      retired_by: by.id,
      reason,
      replaced_by: replacedBy,
    })
    .execute();
}

/** Whether a site was archived (its records stay readable to staff). */
export async function isArchivedSite(db: Kysely<Database>, siteId: number): Promise<boolean> {
  const row = await db.selectFrom('archived_sites').select('id').where('id', '=', siteId).executeTakeFirst();
  return row !== undefined;
}

/** Whether a serial was on a site once and was taken off or replaced. */
export async function isRetiredSerial(db: Kysely<Database>, serial: string): Promise<boolean> {
  const row = await db
    .selectFrom('retired_devices')
    .select('id')
    .where('serial', '=', serial)
    .executeTakeFirst();
  return row !== undefined;
}

/** Two installs of one serial at once: the unique index keeps one, the other is told by `onDuplicate`. */
export async function uniqueSerial<T>(
  write: () => Promise<T>,
  onDuplicate: () => Promise<never>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return onDuplicate();
    throw error;
  }
}

/** A device row as the API answers it. */
export const asDevice = (
  row: {
    id: number;
    model_id: string;
    serial: string;
    name: string;
    site_id: number;
    installed_at: Date | string;
    claimed_at?: Date | string | null;
    firmware_version?: string | null;
  },
  siteName: string,
): Device => ({
  id: row.id,
  modelId: row.model_id,
  serial: row.serial,
  name: row.name,
  siteId: row.site_id,
  siteName,
  installedAt: new Date(row.installed_at).toISOString(),
  ...(row.claimed_at ? { claimedAt: new Date(row.claimed_at).toISOString() } : {}),
  firmwareVersion: row.firmware_version ?? null,
});
