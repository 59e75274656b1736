import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import {
  SIMULATED_DEVICES_FILE,
  type SimulatedDevicesFile,
  type SimulatedPlace,
  simulatedDevicesFileSchema,
} from '../../contracts/service-comms.ts';
import type { Database } from '../db/schema.ts';
import type { DemoDeviceSecret } from './device-secrets.ts';

/** Where the demo's simulated devices and their secrets are written. */
export function simulatedDevicesPath(dataDir: string): string {
  return join(dataDir, SIMULATED_DEVICES_FILE);
}

export function hasSimulatedDevices(dataDir: string): boolean {
  return existsSync(simulatedDevicesPath(dataDir));
}

/** Where each device is installed (its site's position and country) and since when, by serial. */
async function placesOf(db: Kysely<Database>, serials: string[]): Promise<Map<string, SimulatedPlace>> {
  if (serials.length === 0) return new Map();
  const rows = await db
    .selectFrom('devices')
    .innerJoin('sites', 'sites.id', 'devices.site_id')
    .select(['devices.serial', 'devices.installed_at', 'sites.latitude', 'sites.longitude', 'sites.country'])
    .where('devices.serial', 'in', serials)
    .execute();
  return new Map(
    rows.map((row) => [
      row.serial,
      {
        latitude: row.latitude,
        longitude: row.longitude,
        country: row.country,
        installedAt: new Date(row.installed_at).getTime(),
      },
    ]),
  );
}

/**
 * Write the demo devices' secrets for `npm start`'s simulated devices, each with where it is
 * (its sun, its grid, its counters): owner-only (0600).
 */
export async function writeSimulatedDevices(
  db: Kysely<Database>,
  dataDir: string,
  devices: DemoDeviceSecret[],
): Promise<void> {
  const places = await placesOf(
    db,
    devices.map((device) => device.serialNumber),
  );
  const body: SimulatedDevicesFile = {
    devices: devices.map((device) => {
      const place = places.get(device.serialNumber);
      return place ? { ...device, place } : device;
    }),
  };
  writeFileSync(simulatedDevicesPath(dataDir), `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
}

/**
 * Bring the places in an existing file up to date (a file from before devices knew their place,
 * or a device moved since): the secrets stay as they are. A file that cannot be read is left.
 */
export async function placeSimulatedDevices(db: Kysely<Database>, dataDir: string): Promise<void> {
  let file: SimulatedDevicesFile;
  try {
    file = simulatedDevicesFileSchema.parse(JSON.parse(readFileSync(simulatedDevicesPath(dataDir), 'utf8')));
  } catch {
    return;
  }
  await writeSimulatedDevices(
    db,
    dataDir,
    file.devices.map(({ serialNumber, modelId, secret }) => ({ serialNumber, modelId, secret })),
  );
}
