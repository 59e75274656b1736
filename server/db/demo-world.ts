import type { ServerContext } from '../context.ts';
import { seedDemoFirmware } from '../firmware/demo-firmware.ts';
import { issueDemoSecrets, issueMissingSecrets } from '../service-comms/device-secrets.ts';
import {
  hasSimulatedDevices,
  placeSimulatedDevices,
  writeSimulatedDevices,
} from '../service-comms/simulated-devices-file.ts';
import { registerDemoLabels } from './demo-labels.ts';
import { seedDemo } from './seed.ts';
import { seedTelemetryHistory } from './seed-telemetry.ts';

/** How many seeded devices `npm start` runs as simulated devices. */
const SIMULATED_DEVICE_COUNT = 4;

/** How many demo devices get a telemetry history (the simulated ones first). */
const HISTORY_DEVICES = 8;

export interface DemoWorldOptions {
  /** The server keeps its data in DATA_DIR (`npm start`): the simulated devices' file lives there. */
  usesDataDir: boolean;
  /** Seed a week of telemetry history along with a freshly seeded database. */
  seedHistory: boolean;
}

/**
 * Everything the demo brings to a database that gets it: the users, sites and devices of an empty
 * one (`seedDemo`), every demo device's secret, the spare units' labels, the simulated devices of
 * `npm start`, a telemetry history and the newer firmware of each demo model. Safe on every start.
 * @returns whether the users, sites and devices were seeded now (the database was empty)
 */
export async function seedDemoWorld(ctx: ServerContext, options: DemoWorldOptions): Promise<boolean> {
  const { db, env } = ctx;
  const seeded = await seedDemo(db, ctx.scryptCost);
  // Every demo device has a secret (a data folder from before devices online gets them now).
  await issueMissingSecrets(db);
  // The demo's spare units can be claimed with the codes on their labels (docs/api.md).
  await registerDemoLabels(db);
  // The demo's simulated devices keep their secrets in DATA_DIR, for `npm start`.
  if (options.usesDataDir && !hasSimulatedDevices(env.DATA_DIR))
    await writeSimulatedDevices(db, env.DATA_DIR, await issueDemoSecrets(db, SIMULATED_DEVICE_COUNT));
  else if (options.usesDataDir) await placeSimulatedDevices(db, env.DATA_DIR);
  if (seeded && options.seedHistory) await seedHistory(ctx);
  // The demo's newer firmware for each demo model, signed now with the development key.
  await seedDemoFirmware(ctx);
  return seeded;
}

async function seedHistory(ctx: ServerContext): Promise<void> {
  const rows = await ctx.db
    .selectFrom('devices')
    .innerJoin('sites', 'sites.id', 'devices.site_id')
    .select([
      'devices.id',
      'devices.serial',
      'devices.model_id as modelId',
      'devices.installed_at',
      'sites.latitude',
      'sites.longitude',
      'sites.country',
    ])
    .orderBy('devices.id')
    .limit(HISTORY_DEVICES)
    .execute();
  // Each device where its site is: its sun, its grid, its counters since it was installed.
  const devices = rows.map((row) => ({
    id: row.id,
    serial: row.serial,
    modelId: row.modelId,
    place: {
      latitude: row.latitude,
      longitude: row.longitude,
      country: row.country,
      installedAt: new Date(row.installed_at).getTime(),
    },
  }));
  const { catalogue, alarms } = ctx.monitoring;
  const started = Date.now();
  const count = await seedTelemetryHistory(
    { db: ctx.db, catalogue, alarms, rawDays: ctx.env.TELEMETRY_RAW_DAYS },
    devices,
  );
  console.log(
    `Seeded ${count} readings of demo telemetry history in ${((Date.now() - started) / 1000).toFixed(1)} s (generated now, flagged as seeded).`,
  );
}
