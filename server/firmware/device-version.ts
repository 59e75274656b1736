import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Keeps the firmware version a device said in its hello. Written only when it changed: every
 * change of a device row moves its lists' versions (their cached pages), and devices say hello
 * at every reconnect.
 */
export async function recordFirmwareVersion(
  db: Kysely<Database>,
  deviceId: number,
  version: string,
): Promise<void> {
  await db
    .updateTable('devices')
    .set({ firmware_version: version })
    .where('id', '=', deviceId)
    .where((eb) => eb.or([eb('firmware_version', 'is', null), eb('firmware_version', '!=', version)]))
    .execute();
}
