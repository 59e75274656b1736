import type { Kysely } from 'kysely';
import type { DeviceEntry } from '../../contracts/catalogue.ts';
import { unscale } from '../../src/codec/scale.ts';
import type { DeviceConfig } from '../../src/device-config/config-schema.ts';
import { rawFieldTable } from '../../src/device-config/decode-values.ts';
import type { DemoPlace, DemoSiteState } from '../../src/device-sim/day-curve.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import type { AlarmService } from '../monitoring/alarms/alarm-store.ts';
import { setWatch } from '../monitoring/alarms/silence.ts';
import { ensurePartitions } from '../monitoring/telemetry/partitions.ts';
import type { ProductCatalogue } from '../monitoring/telemetry/product-catalogue.ts';
import { READING_FLAGS, type Reading, readFrame } from '../monitoring/telemetry/read-frame.ts';
import { foldRollups } from '../monitoring/telemetry/rollup-fold.ts';
import { storeBatch } from '../monitoring/telemetry/store-batch.ts';
import type { Database } from './schema.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** One reading every 5 minutes: the rollups' step, so charts look as they will live. */
const STEP = 5 * MINUTE;

/** What one demo device did before the first start. */
interface Story {
  /** How long ago its history begins and, for a device that stopped, ends. */
  from: number;
  to: number;
  /**
   * From `from` to `to` ago: values it reported (a fault, a value past a limit), by item name, or
   * a state its installation was in (a battery left nearly empty: every value that follows from
   * the charge follows).
   */
  episodes?: {
    from: number;
    to: number;
    values?: Record<string, number>;
    state?: Partial<DemoSiteState>;
  }[];
  /** An installer acknowledged the alarm this rule raised, with a note. */
  acknowledged?: { rule: string; note: string };
}

/**
 * The demo's history, by device in id order: the four devices `npm start` runs live report up to
 * now (the first had a grid fault yesterday afternoon that cleared itself), and four more stopped
 * reporting: an inverter that ran hot (a limit's alarm, acknowledged), a battery left nearly
 * empty, and two charge controllers silent since yesterday.
 */
function stories(modelOf: (index: number) => string | undefined): Story[] {
  const hot: Record<string, Record<string, number>> = {
    'HX-5000': { inverterTemp: 78 },
    'BX-10': { tempCellHigh: 54 },
    'E1-40': { controllerTemp: 80 },
  };
  const hotRule: Record<string, string> = {
    'HX-5000': 'threshold:inverterTemp>',
    'BX-10': 'threshold:tempCellHigh>',
    'E1-40': 'threshold:controllerTemp>',
  };
  const model4 = modelOf(4) ?? 'HX-5000';
  return [
    {
      from: 7 * DAY,
      to: 0,
      episodes: [{ from: 26 * HOUR, to: 25 * HOUR + 20 * MINUTE, values: { faultCode: 1 } }],
    },
    { from: 7 * DAY, to: 0 },
    { from: 7 * DAY, to: 0 },
    { from: 7 * DAY, to: 0 },
    {
      from: 3 * DAY,
      to: 2 * HOUR,
      episodes: [{ from: 3 * HOUR, to: 2 * HOUR, values: hot[model4] ?? {} }],
      acknowledged: { rule: hotRule[model4] ?? '', note: 'Fan replacement ordered; visit on Monday' },
    },
    {
      from: 3 * DAY,
      to: 2 * HOUR,
      episodes: [{ from: 4 * HOUR, to: 2 * HOUR, state: { soc: 8 } }],
    },
    { from: 3 * DAY, to: 26 * HOUR },
    { from: 3 * DAY, to: 30 * HOUR },
  ];
}

/** `frame` with some display values written in (a fault code, a temperature), sealed again. */
function withValues(
  catalogue: ProductCatalogue,
  config: DeviceConfig,
  frame: Uint8Array,
  values: Record<string, number>,
): Uint8Array {
  const items = config.rawData.filter((item) => values[item.name] !== undefined);
  if (items.length === 0) return frame;
  const { codec } = catalogue;
  const table = rawFieldTable(codec, config);
  const all = codec.decodeFields(frame, table);
  config.rawData.forEach((item, i) => {
    if (values[item.name] !== undefined) all[i] = unscale(values[item.name] as number, item.multiplier);
  });
  codec.encodeFields(frame, table, all);
  codec.sealFrame(frame);
  return frame;
}

export interface SeedTelemetryOptions {
  db: Kysely<Database>;
  catalogue: ProductCatalogue;
  alarms: AlarmService;
  rawDays: number;
  now?: number;
}

/**
 * Seed the demo's telemetry history, generated now (every reading is flagged `seeded`): the
 * `Read live values` answers the simulated devices would have sent every 5 minutes, run through
 * the same decoding, storage and alarm rules as live telemetry, so charts, energy per day and
 * alarms are there on the first start and the live readings carry on from them (the simulated
 * devices' values are functions of the time and of where they are). A device's history begins no
 * earlier than its install date. Silent devices (and sites) get their silence alarms at the end:
 * the devices that stopped, and those installed but never heard from. Answers how many readings
 * were stored.
 */
export async function seedTelemetryHistory(
  options: SeedTelemetryOptions,
  devices: readonly { id: number; serial: string; modelId: string; place: Required<DemoPlace> }[],
): Promise<number> {
  const { db, catalogue, alarms } = options;
  const now = options.now ?? Date.now();
  const plan = stories((index) => devices[index]?.modelId);
  const oldest = Math.max(...plan.map((story) => story.from));
  await ensurePartitions(db, now - Math.min(oldest, (options.rawDays - 1) * DAY), now);
  let stored = 0;
  for (const [index, device] of devices.entries()) {
    const story = plan[index];
    const product = catalogue.product(device.modelId);
    if (!story || !product?.spec) continue;
    let clock = 0;
    const simulated = new SimulatedDevice({
      codec: catalogue.codec,
      entry: product.entry as DeviceEntry,
      config: product.config,
      serialNumber: device.serial,
      now: () => clock,
      place: device.place,
    });
    const waiting: Reading[] = [];
    const store = async () => {
      const batch = await storeBatch(db, waiting.splice(0), (m) => catalogue.product(m)?.spec);
      stored += batch.fresh.length;
    };
    const start =
      Math.ceil(
        Math.max(now - Math.min(story.from, (options.rawDays - 1) * DAY), device.place.installedAt) / STEP,
      ) * STEP;
    const end = now - story.to;
    let before: unknown;
    for (let t = start; t <= end; t += STEP) {
      clock = t;
      const ago = now - t;
      const episode = story.episodes?.find((e) => ago <= e.from && ago >= e.to);
      simulated.adjust = episode?.state ?? {};
      const frame = withValues(catalogue, product.config, simulated.liveValuesFrame(), episode?.values ?? {});
      const result = readFrame(catalogue.codec, product, device, frame, t + 2000, 0);
      if (!result.ok) continue;
      const reading = { ...result.reading, flags: result.reading.flags | READING_FLAGS.seeded };
      waiting.push(reading);
      // The alarm rules judge each reading where an episode starts or ends, as they would have
      // then; in between, readings are stored a day at a time.
      if (episode !== before || t + STEP > end) {
        await store();
        await alarms.afterReadings([reading]);
      } else if (waiting.length >= 288) await store();
      before = episode;
    }
    if (story.acknowledged)
      await acknowledgeSeeded(db, alarms, device.id, story.acknowledged, now - story.to);
  }
  // The history was generated as if the service had watched all along: silence counts from its start.
  await setWatch(db, now - oldest, now);
  await alarms.sweepOffline(now);
  await foldRollups(db, now);
  return stored;
}

/** The installer of the device's site acknowledged the alarm this rule raised. */
async function acknowledgeSeeded(
  db: Kysely<Database>,
  alarms: AlarmService,
  deviceId: number,
  acknowledged: { rule: string; note: string },
  at: number,
): Promise<void> {
  const row = await db
    .selectFrom('alarms')
    .innerJoin('devices', 'devices.id', 'alarms.device_id')
    .innerJoin('sites', 'sites.id', 'devices.site_id')
    .innerJoin('users', 'users.id', 'sites.installer_id')
    .select(['alarms.id', 'users.id as user_id', 'users.display_name'])
    .where('alarms.device_id', '=', deviceId)
    .where('alarms.rule', '=', acknowledged.rule)
    .where('alarms.state', '=', 'active')
    .executeTakeFirst();
  if (row)
    await alarms.acknowledge(row.id, { id: row.user_id, name: row.display_name }, acknowledged.note, at);
}
