import type { Kysely } from 'kysely';
import { maySeeSite, mayUpdateFirmware, seesEverything } from '../../contracts/access-policy.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import { requireSiteRight, type Viewer } from './scope.ts';

/** A device a rollout may update. */
export interface RolloutDevice {
  id: number;
  serial: string;
  firmwareVersion: string | null;
}

/**
 * The devices of a rollout of an image for `modelId`, as the caller asks for them: the serials
 * named (each one the caller may update, of that model), a site's devices of that model, or every
 * device of that model the caller may update firmware on. Company staff and admins may update any
 * device; an installer the devices of the sites where they hold the installer role.
 * @throws {ApiError} 404 a serial or site the caller cannot see (another company's included), 403
 *   one they see without the right, 400 a serial of another model or no device at all.
 */
export async function rolloutDevices(
  db: Kysely<Database>,
  viewer: Viewer,
  modelId: string,
  choice: { serials?: string[] | undefined; siteId?: number | undefined },
): Promise<RolloutDevice[]> {
  let query = db
    .selectFrom('devices')
    .leftJoin('site_access', (join) =>
      join.onRef('site_access.site_id', '=', 'devices.site_id').on('site_access.user_id', '=', viewer.id),
    )
    .select([
      'devices.id',
      'devices.serial',
      'devices.model_id',
      'devices.firmware_version',
      'site_access.roles',
      'site_access.access',
    ])
    .orderBy('devices.serial');
  if (choice.serials) query = query.where('devices.serial', 'in', [...new Set(choice.serials)]);
  else {
    if (choice.siteId !== undefined) {
      await requireSiteRight(db, viewer, choice.siteId, mayUpdateFirmware);
      query = query.where('devices.site_id', '=', choice.siteId);
    } else if (!seesEverything(viewer)) query = query.where('site_access.user_id', '=', viewer.id);
    query = query.where('devices.model_id', '=', modelId);
  }
  const rows = await query.execute();
  const grant = (row: (typeof rows)[number]) => ({ roles: row.roles ?? [], access: row.access === true });
  if (choice.serials) {
    const found = new Map(rows.map((row) => [row.serial, row]));
    for (const serial of choice.serials) {
      const row = found.get(serial);
      if (!row || !maySeeSite(viewer, grant(row))) throw notFound(`Device ${serial}`);
      if (!mayUpdateFirmware(viewer, grant(row)))
        throw forbidden(
          `Updating ${serial}'s firmware needs the installer role on its site`,
          'site_role_forbidden',
        );
      if (row.model_id !== modelId)
        throw new ApiError(
          400,
          'invalid_input',
          `serials: ${serial} is a ${row.model_id}; the image is for ${modelId}`,
          'serials',
        );
    }
  }
  const chosen = rows.filter((row) => mayUpdateFirmware(viewer, grant(row)));
  if (chosen.length === 0)
    throw new ApiError(400, 'invalid_input', `No device of model ${modelId} to update there`, 'serials');
  return chosen.map((row) => ({ id: row.id, serial: row.serial, firmwareVersion: row.firmware_version }));
}

/** Whether the caller may see and steer a rollout: those who see everything, and whoever started it. */
export const maySteerRollout = (viewer: Viewer, rollout: { created_by: number | null }): boolean =>
  seesEverything(viewer) || rollout.created_by === viewer.id;

/** The rollout, when the caller may see it. @throws {ApiError} 404 otherwise. */
export async function requireRollout(db: Kysely<Database>, viewer: Viewer, id: number) {
  const rollout = await db
    .selectFrom('firmware_rollouts')
    .innerJoin('firmware_images', 'firmware_images.id', 'firmware_rollouts.firmware_id')
    .selectAll('firmware_rollouts')
    .select(['firmware_images.model_id', 'firmware_images.version'])
    .where('firmware_rollouts.id', '=', id)
    .executeTakeFirst();
  if (!rollout || !maySteerRollout(viewer, rollout)) throw notFound('Firmware rollout');
  return rollout;
}
