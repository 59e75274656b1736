import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrations.ts';
import type { Database } from '../../server/db/schema.ts';
import { ensurePartitions } from '../../server/monitoring/telemetry/partitions.ts';
import type { Reading } from '../../server/monitoring/telemetry/read-frame.ts';
import { foldRollups } from '../../server/monitoring/telemetry/rollup-fold.ts';
import { StepBuffer } from '../../server/monitoring/telemetry/step-buffer.ts';
import { storeBatch } from '../../server/monitoring/telemetry/store-batch.ts';
import { DayClock } from '../../server/monitoring/telemetry/time-buckets.ts';
import type { TelemetrySpec } from '../../src/device-config/telemetry-spec.ts';
import { freshDatabase } from './harness.ts';

/**
 * Rollups of random readings, stored batch by batch in any arrival order (duplicates included),
 * with 5-minute steps folded into their hours and days at random moments between batches, equal a direct
 * aggregation of the same readings: per device, metric and 5-minute step or day,
 * count, sum, least, greatest, newest, and for an energy counter its increase, robust to resets.
 * Values are multiples of 1/4, so sums are exact whatever the order of adding.
 */
const SPEC: TelemetrySpec = {
  timeItem: 'readingTime',
  metrics: [
    { name: 'power', unit: 'W', counter: false },
    { name: 'energy', unit: 'kWh', counter: true },
  ],
  status: [],
  thresholds: [],
  roles: {},
};
const START = Date.UTC(2026, 2, 7, 20, 0); // a Saturday evening in Chicago, across midnight there
const SPAN_MS = 30 * 3_600_000;
// Days in the site's zone, which has an offset, so a local day is not a UTC day.
const days = new DayClock('America/Chicago');

let db: Kysely<Database>;
let drop: () => Promise<void>;
let deviceIds: number[] = [];

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  db = openDatabase(fresh.target);
  await migrate(db);
  const site = await db
    .insertInto('sites')
    .values({
      name: 'Rollups',
      display_address: 'x',
      street_number: '',
      street_name: '',
      postal_code: '',
      locality: '',
      state: '',
      country: '',
      latitude: 41.88,
      longitude: -87.63,
      time_zone: 'America/Chicago',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const devices = await db
    .insertInto('devices')
    .values(
      [1, 2].map((n) => ({ model_id: 'M', serial: `HX5K-26-00000${n}`, name: `d${n}`, site_id: site.id })),
    )
    .returning('id')
    .execute();
  deviceIds = devices.map((d) => d.id);
  await ensurePartitions(db, START - 86_400_000, START + SPAN_MS + 86_400_000);
});
afterAll(async () => {
  await db?.destroy();
  await drop?.();
});

interface Sent {
  device: 0 | 1;
  second: number;
  power: number;
  /** How the counter moves from the device's previous reading: grows, or restarts (a reset). */
  energyStep: number;
  reset: boolean;
}

const quarter = (min: number, max: number) => fc.integer({ min: min * 4, max: max * 4 }).map((n) => n / 4);

/**
 * Readings of two devices over `spanMs` (30 hours; or a quarter of an hour, so that batch after
 * batch merges into steps already stored), the counter built in time order, then any arrival order.
 */
const scenarioOver = (spanMs: number) =>
  fc
    .record({
      sent: fc.array(
        fc.record({
          device: fc.constantFrom<0 | 1>(0, 1),
          second: fc.integer({ min: 0, max: spanMs / 1000 }),
          power: quarter(-500, 5000),
          energyStep: quarter(0, 3),
          reset: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
        }),
        { minLength: 1, maxLength: 60 },
      ),
      duplicates: fc.array(fc.nat(), { maxLength: 10 }),
      order: fc.array(fc.nat(), { maxLength: 80 }),
      cuts: fc.array(fc.nat({ max: 80 }), { maxLength: 6 }),
      // After which batch steps are folded into their days, and up to when.
      folds: fc.array(
        fc.record({ after: fc.nat({ max: 7 }), upTo: fc.integer({ min: 0, max: spanMs / 1000 }) }),
        {
          maxLength: 3,
        },
      ),
    })
    .map(({ sent, duplicates, order, cuts, folds }) => {
      // The counter of each device in time order: grows by its step, or restarts from the step.
      const byTime = [...sent].sort((a, b) => a.second - b.second || a.device - b.device);
      const counters = [100, 5000];
      const readings: Reading[] = [];
      const seen = new Set<string>();
      for (const s of byTime) {
        const key = `${s.device}:${s.second}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const counter = (s.reset ? 0 : (counters[s.device] ?? 0)) + s.energyStep;
        counters[s.device] = counter;
        readings.push(reading(s, counter));
      }
      const arrivals = [...readings, ...duplicates.map((i) => readings[i % readings.length] as Reading)];
      // A permutation from `order`: each number picks one of the readings still waiting.
      const waiting = [...arrivals];
      const shuffled: Reading[] = [];
      for (let i = 0; waiting.length > 0; i++)
        shuffled.push(...waiting.splice((order[i] ?? 0) % waiting.length, 1));
      const points = [...new Set(cuts.map((c) => c % (shuffled.length + 1)))].sort((a, b) => a - b);
      const batches = [...points, shuffled.length].map((end, i) => shuffled.slice(points[i - 1] ?? 0, end));
      return { readings, batches: batches.filter((b) => b.length > 0), folds };
    });
const scenario = scenarioOver(SPAN_MS);

function reading(s: Sent, energy: number): Reading {
  const deviceTime = START + s.second * 1000;
  return {
    deviceId: deviceIds[s.device] ?? 0,
    serial: `d${s.device}`,
    modelId: 'M',
    deviceTime,
    receivedAt: deviceTime,
    flags: 0,
    values: { power: s.power, energy },
  };
}

/** A reading of the first device. */
function firstDevice(deviceTime: number, receivedAt: number, values: Record<string, number>): Reading {
  return {
    deviceId: deviceIds[0] ?? 0,
    serial: 'd0',
    modelId: 'M',
    deviceTime,
    receivedAt,
    flags: 0,
    values,
  };
}

interface Row {
  device_id: number;
  metric: string;
  step: string;
  n: number;
  total: number;
  min: number | null;
  max: number | null;
  last: number | null;
  increase: number | null;
}

/** The same steps, computed straight from the readings in time order. */
function directAggregation(readings: Reading[], stepOf: (ms: number) => string): Row[] {
  const rows = new Map<string, Row>();
  const previous = new Map<number, number>();
  for (const r of [...readings].sort((a, b) => a.deviceTime - b.deviceTime)) {
    for (const metric of SPEC.metrics) {
      const value = r.values[metric.name] as number;
      const step = stepOf(r.deviceTime);
      const key = `${r.deviceId}/${metric.name}/${step}`;
      const row = rows.get(key) ?? {
        device_id: r.deviceId,
        metric: metric.name,
        step,
        n: 0,
        total: 0,
        min: null,
        max: null,
        last: null,
        increase: metric.counter ? 0 : null,
      };
      row.n += 1;
      row.total += value;
      row.min = row.min === null ? value : Math.min(row.min, value);
      row.max = row.max === null ? value : Math.max(row.max, value);
      row.last = value;
      if (metric.counter) {
        const before = previous.get(r.deviceId);
        row.increase =
          (row.increase ?? 0) + (before === undefined ? 0 : value >= before ? value - before : value);
        previous.set(r.deviceId, value);
      }
      rows.set(key, row);
    }
  }
  return [...rows.values()].sort(byKey);
}

const byKey = (a: Row, b: Row) =>
  a.device_id - b.device_id || a.metric.localeCompare(b.metric) || a.step.localeCompare(b.step);

async function storedRows(table: 'telemetry_5m' | 'telemetry_1h' | 'telemetry_1d'): Promise<Row[]> {
  if (table === 'telemetry_5m') {
    expect((await sql`SELECT 1 FROM telemetry_5m WHERE NOT folded`.execute(db)).rows).toEqual([]);
    // One row per device and step, metrics side by side: one row per metric here.
    const wide = await sql<Row>`
      SELECT f.device_id, m.metric, to_char(f.bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS step,
             m.n, m.total, m.min, m.max, m.last, m.increase
      FROM telemetry_5m f
      CROSS JOIN LATERAL unnest(f.metrics, f.n, f.total, f.min, f.max, f.last, f.increase)
        AS m(metric, n, total, min, max, last, increase)
      WHERE m.n > 0`.execute(db);
    return wide.rows.sort(byKey);
  }
  const step =
    table === 'telemetry_1h' ? sql`to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI')` : sql`day::text`;
  const result = await sql<Row>`
    SELECT device_id, metric, ${step} AS step, n, total, min, max, last, increase
    FROM ${sql.table(table)}`.execute(db);
  return result.rows.sort(byKey);
}

const hourStep = (ms: number) => new Date(Math.floor(ms / 3_600_000) * 3_600_000).toISOString().slice(0, 16);
const fiveMinuteStep = (ms: number) =>
  new Date(Math.floor(ms / 300_000) * 300_000).toISOString().slice(0, 16);

/**
 * Store the batches; after the batches `folds` name, fold the 5-minute steps that ended by then
 * into their days (readings after that reach folded steps); at the end, fold everything.
 */
async function run(batches: Reading[][], folds: { after: number; upTo: number }[] = []): Promise<void> {
  await sql`TRUNCATE telemetry_raw, telemetry_5m, telemetry_1h, telemetry_1d, telemetry_latest`.execute(db);
  for (const [i, batch] of batches.entries()) {
    await storeBatch(db, batch, () => SPEC);
    for (const fold of folds.filter((f) => f.after === i)) await foldRollups(db, START + fold.upTo * 1000);
  }
  await foldRollups(db, START + 10 * SPAN_MS);
}

/**
 * As {@link run}, with the steps a process has merged once held back between batches (StepBuffer):
 * merged after the batches `flushes` names, lost after those `crashes` names (the process stopped
 * without warning: a new one holds nothing), and at the end merged or lost (`flushAtEnd`). A
 * batch's clock is the latest fold's cutoff (START before any), as the fold's barrier makes it.
 */
async function runHeld(
  batches: Reading[][],
  folds: { after: number; upTo: number }[],
  { flushes, crashes, flushAtEnd }: { flushes: number[]; crashes: number[]; flushAtEnd: boolean },
): Promise<void> {
  await sql`TRUNCATE telemetry_raw, telemetry_5m, telemetry_1h, telemetry_1d, telemetry_latest`.execute(db);
  let clock = START;
  const newProcess = () => new StepBuffer(() => clock);
  let buffer = newProcess();
  for (const [i, batch] of batches.entries()) {
    await storeBatch(db, batch, () => SPEC, undefined, buffer);
    if (flushes.includes(i)) await buffer.flush(db);
    if (crashes.includes(i)) buffer = newProcess();
    for (const fold of folds.filter((f) => f.after === i)) {
      clock = Math.max(clock, START + fold.upTo * 1000);
      await foldRollups(db, clock);
    }
  }
  if (flushAtEnd) await buffer.flush(db);
  await foldRollups(db, START + 10 * SPAN_MS);
}

describe('rollups of readings in any arrival order', () => {
  it('equal a direct aggregation of the same readings', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ readings, batches, folds }) => {
        await run(batches, folds);
        expect(await storedRows('telemetry_5m')).toEqual(directAggregation(readings, fiveMinuteStep));
        expect(await storedRows('telemetry_1h')).toEqual(directAggregation(readings, hourStep));
        expect(await storedRows('telemetry_1d')).toEqual(directAggregation(readings, (ms) => days.dayOf(ms)));
      }),
      { numRuns: 40 },
    );
  });

  it('equal a direct aggregation when batch after batch merges into the same few steps', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioOver(15 * 60_000), async ({ readings, batches, folds }) => {
        await run(batches, folds);
        expect(await storedRows('telemetry_5m')).toEqual(directAggregation(readings, fiveMinuteStep));
        expect(await storedRows('telemetry_1h')).toEqual(directAggregation(readings, hourStep));
      }),
      { numRuns: 40 },
    );
  });

  it('equal a direct aggregation when a process holds steps back, merges them now and then, and loses them', async () => {
    const held = fc.record({
      flushes: fc.array(fc.nat({ max: 7 }), { maxLength: 4 }),
      crashes: fc.array(fc.nat({ max: 7 }), { maxLength: 2 }),
      flushAtEnd: fc.boolean(),
    });
    for (const span of [SPAN_MS, 15 * 60_000])
      await fc.assert(
        fc.asyncProperty(scenarioOver(span), held, async ({ readings, batches, folds }, holding) => {
          await runHeld(batches, folds, holding);
          expect(await storedRows('telemetry_5m')).toEqual(directAggregation(readings, fiveMinuteStep));
          expect(await storedRows('telemetry_1h')).toEqual(directAggregation(readings, hourStep));
          expect(await storedRows('telemetry_1d')).toEqual(
            directAggregation(readings, (ms) => days.dayOf(ms)),
          );
        }),
        { numRuns: 20 },
      );
  });

  it('counts a held-back step from its raw rows when it is folded first, and its merge then leaves it', async () => {
    const at = (second: number, power: number) =>
      firstDevice(START + second * 1000, START + second * 1000, { power, energy: second });
    await sql`TRUNCATE telemetry_raw, telemetry_5m, telemetry_1h, telemetry_1d, telemetry_latest`.execute(db);
    let clock = START;
    const buffer = new StepBuffer(() => clock);
    // The first batch of the step merges it; the second's reading waits in the process.
    await storeBatch(db, [at(10, 4)], () => SPEC, undefined, buffer);
    await storeBatch(db, [at(20, 6)], () => SPEC, undefined, buffer);
    expect(buffer.size).toBe(1);
    const power = async () =>
      (
        await sql<{ n: number; total: number; readings: number; folded: boolean }>`
          SELECT n[1] AS n, total[1] AS total, readings, folded FROM telemetry_5m`.execute(db)
      ).rows;
    expect(await power()).toEqual([{ n: 1, total: 4, readings: 1, folded: false }]);
    clock = START + 10 * 60_000;
    await foldRollups(db, clock);
    expect(await power()).toEqual([{ n: 2, total: 10, readings: 2, folded: true }]);
    expect(await buffer.flush(db)).toBe(1);
    expect(await power()).toEqual([{ n: 2, total: 10, readings: 2, folded: true }]);
    expect(await storedRows('telemetry_1h')).toEqual(directAggregation([at(10, 4), at(20, 6)], hourStep));
  });

  it('folds a fleet larger than one chunk in full when the fold rests between chunks', async () => {
    // Two devices, a reading in each of 300 five-minute steps: 600 steps, several chunks.
    const readings: Reading[] = [];
    for (const [d, deviceId] of deviceIds.entries())
      for (let step = 0; step < 300; step++)
        readings.push({
          deviceId,
          serial: `d${d}`,
          modelId: 'M',
          deviceTime: START + step * 300_000 + 1000,
          receivedAt: START,
          flags: 0,
          values: { power: step, energy: step / 4 },
        });
    await sql`TRUNCATE telemetry_raw, telemetry_5m, telemetry_1h, telemetry_1d, telemetry_latest`.execute(db);
    await storeBatch(db, readings, () => SPEC);
    expect(await foldRollups(db, START + 10 * SPAN_MS, 0.5)).toBe(600);
    const left = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM telemetry_5m WHERE NOT folded`.execute(db);
    expect(left.rows[0]?.n).toBe(0);
    expect(await storedRows('telemetry_1h')).toEqual(directAggregation(readings, hourStep));
    expect(await storedRows('telemetry_1d')).toEqual(directAggregation(readings, (ms) => days.dayOf(ms)));
  });

  it('counts a reset as growth from zero, also when the readings around it arrive late', async () => {
    const at = (minute: number, energy: number) =>
      firstDevice(START + minute * 60_000, START, { power: 1, energy });
    // 10 → 12 → (reset) 0.5 → 1.5, arriving last, first, third, second.
    await run([[at(30, 1.5)], [at(0, 10)], [at(20, 0.5)], [at(10, 12)]]);
    const increase = (await storedRows('telemetry_1d')).find((row) => row.metric === 'energy')?.increase;
    expect(increase).toBe(2 + 0.5 + 1);
  });

  it('keeps each reading as sent: its times to the millisecond, its flags and values, the newest as latest', async () => {
    const sample = fc.uniqueArray(
      fc.record({
        device: fc.constantFrom(0, 1),
        at: fc.integer({ min: 0, max: SPAN_MS - 1 }),
        late: fc.integer({ min: 0, max: 600_000 }),
        flags: fc.integer({ min: 0, max: 3 }),
        // JSON, as readings are stored, has no -0: a reading's 0 is 0.
        power: fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }).map((v) => v + 0),
      }),
      { minLength: 1, maxLength: 30, selector: (r) => `${r.device}:${r.at}` },
    );
    await fc.assert(
      fc.asyncProperty(sample, async (sent) => {
        await sql`TRUNCATE telemetry_raw, telemetry_5m, telemetry_1h, telemetry_1d, telemetry_latest`.execute(
          db,
        );
        const readings: Reading[] = sent.map((s) => ({
          deviceId: deviceIds[s.device] ?? 0,
          serial: `d${s.device}`,
          modelId: 'M',
          deviceTime: START + s.at,
          receivedAt: START + s.at + s.late,
          flags: s.flags,
          values: { power: s.power, energy: s.at / 4 },
        }));
        await storeBatch(db, readings, () => SPEC);
        const rowsOf = async (table: 'telemetry_raw' | 'telemetry_latest') =>
          (
            await sql<{
              deviceId: number;
              deviceTime: number;
              receivedAt: number;
              flags: number;
              values: object;
            }>`
              SELECT device_id AS "deviceId", (extract(epoch from device_time) * 1000)::float8 AS "deviceTime",
                (extract(epoch from received_at) * 1000)::float8 AS "receivedAt", flags, vals AS "values"
              FROM ${sql.table(table)} ORDER BY device_id, device_time`.execute(db)
          ).rows.map((row) => ({
            ...row,
            deviceTime: Math.round(row.deviceTime),
            receivedAt: Math.round(row.receivedAt),
          }));
        const plain = (r: Reading) => ({
          deviceId: r.deviceId,
          deviceTime: r.deviceTime,
          receivedAt: r.receivedAt,
          flags: r.flags,
          values: r.values,
        });
        const inOrder = [...readings].sort((a, b) => a.deviceId - b.deviceId || a.deviceTime - b.deviceTime);
        expect(await rowsOf('telemetry_raw')).toEqual(inOrder.map(plain));
        const newest = deviceIds.flatMap((id) => inOrder.filter((r) => r.deviceId === id).slice(-1));
        expect(await rowsOf('telemetry_latest')).toEqual(newest.map(plain));
      }),
      { numRuns: 25 },
    );
  });
  it('merges the steps of two products in one batch, metrics a reading lacks left empty, also into folded steps', async () => {
    // A second product whose list shares a name with SPEC's, in another order.
    const other: TelemetrySpec = {
      ...SPEC,
      metrics: [
        { name: 'temp', unit: '°C', counter: false },
        { name: 'power', unit: 'W', counter: false },
      ],
    };
    const spec = (model: string) => (model === 'N' ? other : SPEC);
    const at = (device: 0 | 1, second: number, values: Record<string, number>): Reading => ({
      deviceId: deviceIds[device] ?? 0,
      serial: `d${device}`,
      modelId: device === 0 ? 'M' : 'N',
      deviceTime: START + second * 1000,
      receivedAt: START + 900_000,
      flags: 0,
      values,
    });
    await sql`TRUNCATE telemetry_raw, telemetry_5m, telemetry_1h, telemetry_1d, telemetry_latest`.execute(db);
    await storeBatch(db, [at(0, 10, { power: 1, energy: 10 }), at(1, 10, { temp: 20 })], spec);
    await storeBatch(
      db,
      [at(1, 50, { temp: 22, power: 4 }), at(0, 40, { power: 3, energy: 11 }), at(1, 20, { temp: 21 })],
      spec,
    );
    // Folded, then a late reading of each device comes to the same steps.
    await foldRollups(db, START + 3_600_000);
    await storeBatch(db, [at(1, 5, { temp: 19, power: 2 }), at(0, 5, { power: 5, energy: 9.5 })], spec);
    const step = fiveMinuteStep(START);
    const row = (device: 0 | 1, metric: string, figures: Omit<Row, 'device_id' | 'metric' | 'step'>) => ({
      device_id: deviceIds[device] ?? 0,
      metric,
      step,
      ...figures,
    });
    const expected = [
      row(0, 'energy', { n: 3, total: 30.5, min: 9.5, max: 11, last: 11, increase: 1.5 }),
      row(0, 'power', { n: 3, total: 9, min: 1, max: 5, last: 3, increase: null }),
      row(1, 'power', { n: 2, total: 6, min: 2, max: 4, last: 4, increase: null }),
      row(1, 'temp', { n: 4, total: 82, min: 19, max: 22, last: 22, increase: null }),
    ].sort(byKey);
    expect(await storedRows('telemetry_5m')).toEqual(expected);
    expect(await storedRows('telemetry_1h')).toEqual(expected.map((r) => ({ ...r, step: hourStep(START) })));
    // Device 1's list keeps its own order: temp first, power second.
    const lists = await sql<{ metrics: string[] }>`
      SELECT metrics FROM telemetry_5m ORDER BY device_id`.execute(db);
    expect(lists.rows.map((r) => r.metrics)).toEqual([
      ['power', 'energy'],
      ['temp', 'power'],
    ]);
  });
});
