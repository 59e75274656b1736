import type { Kysely } from 'kysely';
import { mayUpdateFirmware, seesEverything } from '../../contracts/access-policy.ts';
import type { Database } from '../db/schema.ts';
import type { Viewer } from './scope.ts';

/**
 * The models whose firmware images the caller may read: every model for one who sees everything,
 * otherwise the models of the devices on the sites where the policy lets them update firmware.
 */
export async function firmwareModelsOf(db: Kysely<Database>, viewer: Viewer): Promise<'all' | Set<string>> {
  if (seesEverything(viewer)) return 'all';
  const rows = await db
    .selectFrom('site_access')
    .innerJoin('devices', 'devices.site_id', 'site_access.site_id')
    .select(['devices.model_id', 'site_access.roles', 'site_access.access'])
    .distinct()
    .where('site_access.user_id', '=', viewer.id)
    .execute();
  return new Set(
    rows
      .filter((row) => mayUpdateFirmware(viewer, { roles: row.roles, access: row.access }))
      .map((row) => row.model_id),
  );
}

/** Whether the caller may read an image of `modelId` (to update a device of that model). */
export const mayReadFirmwareOf = (models: 'all' | Set<string>, modelId: string): boolean =>
  models === 'all' || models.has(modelId);
