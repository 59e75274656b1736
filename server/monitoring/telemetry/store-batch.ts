import { type Kysely, sql, type Transaction } from 'kysely';
import type { TelemetryCount } from '../../../contracts/monitoring.ts';
import type { TelemetrySpec } from '../../../src/device-config/telemetry-spec.ts';
import type { Database } from '../../db/schema.ts';
import type { Reading } from './read-frame.ts';
import { barrierClock } from './rollup-fold.ts';
import { addToStep, type CounterPoint, increaseChanges, type StepAggregate } from './rollup-math.ts';
import { addToHoursAndDays, DAYS_LOCK, upsertFiveMinutes, type WideStep, WideSteps } from './rollup-steps.ts';
import type { StepBuffer } from './step-buffer.ts';
import { bucket5m } from './time-buckets.ts';

/** What one batch stored: the readings that were new (duplicates left out), oldest first. */
export interface StoredBatch {
  fresh: Reading[];
  duplicates: number;
}

/** The telemetry a model's readings carry, or undefined when the catalogue no longer has it. */
export type SpecLookup = (modelId: string) => TelemetrySpec | undefined;

/**
 * Readings as one JSON parameter: `[deviceId, deviceTime, receivedAt, flags, values]` each, the
 * times in epoch ms. One native `JSON.stringify` per batch, where a parameter per column cost a
 * date string per time and a JSON text per reading, escaped again as an array element.
 */
function readingRows(readings: readonly Reading[]): string {
  return JSON.stringify(readings.map((r) => [r.deviceId, r.deviceTime, r.receivedAt, r.flags, r.values]));
}

/** The columns of {@link readingRows} in SQL (`e` an element of the array). */
const READING_COLUMNS = sql`(e->>0)::int, to_timestamp((e->>1)::float8 / 1000), to_timestamp((e->>2)::float8 / 1000),
  (e->>3)::smallint, e->4`;

/** One device's fresh readings of one energy counter in a batch: the first one's time and the last's. */
interface CounterSeries {
  deviceId: number;
  modelId: string;
  metric: string;
  from: number;
  to: number;
}

/** A device's latest reading as stored before a batch: its time, and its energy counters' values. */
type LatestBefore = Map<number, { at: number; values: Record<string, number> }>;

/**
 * The values of `counters` in a latest row `l`, as a JSON object without the ones it lacks: one
 * expression for the names given, where picking them out of every key of the row (`jsonb_each`)
 * cost the database about a fifth of the statement.
 */
function counterValues(counters: readonly string[]) {
  if (counters.length === 0) return sql`'{}'::jsonb`;
  return sql`jsonb_strip_nulls(jsonb_build_object(${sql.join(counters.map((name) => sql`${name}::text, l.vals->${name}::text`))}))`;
}

/**
 * New readings into `telemetry_raw` and each device's newest of them into `telemetry_latest`
 * (unless a newer one is stored already), in one statement; answers the readings actually
 * inserted (not already stored), in the order given, and each of their devices' latest reading as
 * it was before (every part of one statement sees the tables as they were when it began): its
 * time and the values of `counters` only, all the counter windows need. Usually every reading is
 * new: then the keys of the inserted ones are not sent back, a count is enough, and `fresh` is
 * `readings` itself (storeBatch keeps the steps it built meanwhile only then).
 */
async function insertReadings(
  trx: Transaction<Database>,
  readings: Reading[],
  counters: readonly string[],
): Promise<{ fresh: Reading[]; before: LatestBefore }> {
  const answer = await sql<{
    n: number;
    keys: [number, number][] | null;
    before: [number, number, Record<string, number>][] | null;
  }>`
    WITH inserted AS (
      INSERT INTO telemetry_raw (device_id, device_time, received_at, flags, vals)
      SELECT ${READING_COLUMNS} FROM jsonb_array_elements(${readingRows(readings)}::jsonb) AS e
      ON CONFLICT DO NOTHING
      RETURNING device_id, device_time, received_at, flags, vals),
    newest AS (
      SELECT DISTINCT ON (device_id) device_id, device_time, received_at, flags, vals
      FROM inserted ORDER BY device_id, device_time DESC),
    before AS (
      SELECT l.device_id, (extract(epoch from l.device_time) * 1000)::float8 AS t,
             ${counterValues(counters)} AS counters
      FROM telemetry_latest l JOIN newest USING (device_id)),
    latest AS (
      INSERT INTO telemetry_latest AS l (device_id, device_time, received_at, flags, vals)
      SELECT device_id, device_time, received_at, flags, vals FROM newest
      ON CONFLICT (device_id) DO UPDATE SET
        received_at = GREATEST(l.received_at, EXCLUDED.received_at),
        device_time = GREATEST(l.device_time, EXCLUDED.device_time),
        flags = CASE WHEN EXCLUDED.device_time > l.device_time THEN EXCLUDED.flags ELSE l.flags END,
        vals = CASE WHEN EXCLUDED.device_time > l.device_time THEN EXCLUDED.vals ELSE l.vals END
    )
    SELECT (SELECT count(*) FROM inserted)::int AS n,
           CASE WHEN (SELECT count(*) FROM inserted) < ${readings.length}
                THEN (SELECT json_agg(json_build_array(device_id, (extract(epoch from device_time) * 1000)::float8))
                      FROM inserted) END AS keys,
           (SELECT json_agg(json_build_array(device_id, t, counters)) FROM before) AS before`.execute(trx);
  const { n, keys, before } = answer.rows[0] ?? { n: 0, keys: null, before: null };
  const latest: LatestBefore = new Map(
    (before ?? []).map(([id, t, values]) => [id, { at: Math.round(t), values }]),
  );
  if (n === readings.length) return { fresh: readings, before: latest };
  const inserted = new Set((keys ?? []).map(([id, t]) => `${id}:${Math.round(t)}`));
  return { fresh: readings.filter((r) => inserted.has(`${r.deviceId}:${r.deviceTime}`)), before: latest };
}

/**
 * For each device and counter with fresh readings: the stored readings around and between them
 * (the one before the first fresh reading, all up to the last, and the one after), oldest first.
 * When every fresh reading of a series is newer than the device's latest before the batch (the
 * usual case, readings in order), that latest is the one before and nothing lies after: no query.
 */
async function counterWindows(
  trx: Transaction<Database>,
  series: readonly CounterSeries[],
  latest: ReadonlyMap<number, { at: number; values: Record<string, number> }>,
  fresh: readonly Reading[],
): Promise<Map<CounterSeries, CounterPoint[]>> {
  const windows = new Map<CounterSeries, CounterPoint[]>();
  const inOrder = (s: CounterSeries) => {
    const before = latest.get(s.deviceId);
    return before === undefined || before.at < s.from;
  };
  // Each device's fresh readings, oldest first (as `fresh`), found once rather than per series.
  const freshOf = new Map<number, Reading[]>();
  for (const reading of fresh) {
    const list = freshOf.get(reading.deviceId);
    if (list) list.push(reading);
    else freshOf.set(reading.deviceId, [reading]);
  }
  const late: CounterSeries[] = [];
  for (const s of series) {
    if (!inOrder(s)) {
      late.push(s);
      continue;
    }
    const before = latest.get(s.deviceId);
    const value = before?.values[s.metric];
    const window: CounterPoint[] =
      value === undefined || !before ? [] : [{ at: before.at, value, fresh: false }];
    for (const reading of freshOf.get(s.deviceId) ?? []) {
      const v = reading.values[s.metric];
      if (v !== undefined) window.push({ at: reading.deviceTime, value: v, fresh: true });
    }
    windows.set(s, window);
  }
  if (late.length === 0) return windows;
  const rows = await sql<{ i: number; t: number; v: number }>`
    SELECT s.i, (extract(epoch from r.device_time) * 1000)::float8 AS t, r.v
    FROM unnest(${late.map((s) => s.deviceId)}::int[], ${late.map((s) => s.metric)}::text[],
                ${late.map((s) => new Date(s.from).toISOString())}::timestamptz[],
                ${late.map((s) => new Date(s.to).toISOString())}::timestamptz[]) WITH ORDINALITY
      AS s(device_id, metric, t0, t1, i)
    CROSS JOIN LATERAL (
      (SELECT device_time, (vals->>s.metric)::float8 AS v FROM telemetry_raw
        WHERE device_id = s.device_id AND device_time < s.t0 AND vals ? s.metric
        ORDER BY device_time DESC LIMIT 1)
      UNION ALL
      (SELECT device_time, (vals->>s.metric)::float8 FROM telemetry_raw
        WHERE device_id = s.device_id AND device_time BETWEEN s.t0 AND s.t1 AND vals ? s.metric)
      UNION ALL
      (SELECT device_time, (vals->>s.metric)::float8 FROM telemetry_raw
        WHERE device_id = s.device_id AND device_time > s.t1 AND vals ? s.metric
        ORDER BY device_time LIMIT 1)
    ) r`.execute(trx);
  for (const row of rows.rows) {
    const s = late[Number(row.i) - 1] as CounterSeries;
    const at = Math.round(row.t);
    const isFresh = (freshOf.get(s.deviceId) ?? []).some((reading) => reading.deviceTime === at);
    const list = windows.get(s);
    if (list) list.push({ at, value: row.v, fresh: isFresh });
    else windows.set(s, [{ at, value: row.v, fresh: isFresh }]);
  }
  for (const s of late) windows.get(s)?.sort((a, b) => a.at - b.at);
  return windows;
}

/** Add counts of one day to `telemetry_counts`. */
export async function addCounts(
  db: Kysely<Database> | Transaction<Database>,
  day: string,
  counts: ReadonlyMap<TelemetryCount, number>,
): Promise<void> {
  const kinds = [...counts.entries()].filter(([, count]) => count > 0);
  if (kinds.length === 0) return;
  await sql`
    INSERT INTO telemetry_counts AS c (day, kind, count)
    SELECT ${day}::date, kind, count FROM unnest(${kinds.map(([k]) => k)}::text[], ${kinds.map(([, n]) => n)}::bigint[]) AS k(kind, count)
    ON CONFLICT (day, kind) DO UPDATE SET count = c.count + EXCLUDED.count`.execute(db);
}

/**
 * The readings with the first of two sharing one key (device and device time) kept, in order. A
 * device's first time is held as a number and a set made only for a second reading of one device,
 * so a batch with a reading a device (the usual case) builds no key per reading.
 */
function firstOfEachKey(readings: readonly Reading[]): Reading[] {
  const times = new Map<number, number | Set<number>>();
  const kept: Reading[] = [];
  for (const reading of readings) {
    const seen = times.get(reading.deviceId);
    if (seen === undefined) times.set(reading.deviceId, reading.deviceTime);
    else if (typeof seen === 'number') {
      if (seen === reading.deviceTime) continue;
      times.set(reading.deviceId, new Set([seen, reading.deviceTime]));
    } else {
      if (seen.has(reading.deviceTime)) continue;
      seen.add(reading.deviceTime);
    }
    kept.push(reading);
  }
  return kept;
}

/** Readings between turns of the event loop while a batch's steps are built. */
const YIELD_EVERY = 200;

/**
 * A batch's readings (oldest first) as 5-minute steps, and each device's energy counters with
 * readings in it (a few a device, found by name): the first and last time of each.
 */
async function rollupsOf(
  readings: readonly Reading[],
  specOf: SpecLookup,
): Promise<{ fiveMinutes: WideSteps; counterSeries: Map<number, CounterSeries[]> }> {
  const fiveMinutes = new WideSteps();
  const counterSeries = new Map<number, CounterSeries[]>();
  for (let r = 0; r < readings.length; r++) {
    // Now and then a turn of the event loop: the socket sends the rest of the statement meanwhile.
    if (r % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    const reading = readings[r] as Reading;
    const spec = specOf(reading.modelId);
    if (!spec) continue;
    const { metrics } = spec;
    const wide = fiveMinutes.step(reading.deviceId, bucket5m(reading.deviceTime), metrics);
    wide.readings += 1;
    for (let i = 0; i < metrics.length; i++) {
      const metric = metrics[i] as (typeof metrics)[number];
      const value = reading.values[metric.name];
      if (value === undefined) continue;
      addToStep(wide.steps[i] as StepAggregate, value, reading.deviceTime);
      if (!metric.counter) continue;
      let ofDevice = counterSeries.get(reading.deviceId);
      if (!ofDevice) {
        ofDevice = [];
        counterSeries.set(reading.deviceId, ofDevice);
      }
      const series = ofDevice.find((s) => s.metric === metric.name);
      if (!series)
        ofDevice.push({
          deviceId: reading.deviceId,
          modelId: reading.modelId,
          metric: metric.name,
          from: reading.deviceTime,
          to: reading.deviceTime,
        });
      else series.to = reading.deviceTime;
    }
  }
  return { fiveMinutes, counterSeries };
}

/**
 * Store a batch of readings in one transaction: the raw rows and each device's latest reading in
 * one statement (a reading already stored, same device and device time, is left out), then the
 * 5-minute rollups of every metric merged in one upsert (and into their days where a step was
 * already folded into its day, rollup-fold.ts), energy counters' increases corrected around
 * readings that arrived out of order. `within` runs last, in the same
 * transaction (counts, a NOTIFY), so it commits with the readings or not at all.
 *
 * With `buffer`, the steps this process has merged once already wait there, to be merged with
 * the next batches' (see {@link StepBuffer}); they join it once the batch has committed.
 */
export async function storeBatch(
  db: Kysely<Database>,
  readings: readonly Reading[],
  lookUp: SpecLookup,
  within?: (trx: Transaction<Database>, stored: StoredBatch) => Promise<void>,
  buffer?: StepBuffer,
): Promise<StoredBatch> {
  const candidates = firstOfEachKey(readings);
  // Each model looked up once a batch (a batch's readings share a few), not once per reading.
  const specs = new Map<string, TelemetrySpec | undefined>();
  const specOf = (modelId: string) => {
    if (!specs.has(modelId)) specs.set(modelId, lookUp(modelId));
    return specs.get(modelId);
  };
  let held: { merged: WideSteps; held: WideStep[] } | undefined;
  const stored = await db.transaction().execute(async (trx) => {
    // Sent ahead of the insert on the same connection, read when the steps are split.
    const began = buffer
      ? buffer.clock
        ? Promise.resolve(buffer.clock())
        : barrierClock(trx, 'shared')
      : undefined;
    began?.catch(() => {});
    // The energy counters of the batch's models: of the latest before, only these are read.
    const counters = new Set<string>();
    for (const modelId of new Set(candidates.map((r) => r.modelId)))
      for (const metric of specOf(modelId)?.metrics ?? []) if (metric.counter) counters.add(metric.name);
    // The database inserts the raw rows while this process builds the batch's 5-minute steps as if
    // every reading were new (the usual case), and their columns for the upsert: the two work side
    // by side, where one waited for the other. Sent before the steps are built (one turn of the
    // event loop lets the statement out); its failure is taken below, where it is awaited.
    const inserting =
      candidates.length > 0
        ? insertReadings(trx, candidates, [...counters])
        : Promise.resolve({ fresh: [] as Reading[], before: new Map() as LatestBefore });
    inserting.catch(() => {});
    candidates.sort((a, b) => a.deviceTime - b.deviceTime);
    let built = await rollupsOf(candidates, specOf);
    built.fiveMinutes.prepare();
    const { fresh, before } = await inserting;
    // Some were stored already (only then is `fresh` another array, see insertReadings): the
    // steps are built again from the new ones only.
    if (fresh !== candidates) {
      fresh.sort((a, b) => a.deviceTime - b.deviceTime);
      built = await rollupsOf(fresh, specOf);
    }
    const { fiveMinutes, counterSeries } = built;
    const allSeries = [...counterSeries.values()].flat();
    const windows = await counterWindows(trx, allSeries, before, fresh);
    for (const series of allSeries) {
      const points = windows.get(series) ?? [];
      const metrics = specOf(series.modelId)?.metrics ?? [];
      for (const change of increaseChanges(points)) {
        const wide = fiveMinutes.step(series.deviceId, bucket5m(change.at), metrics);
        const five = wide.steps[wide.metrics.indexOf(series.metric)];
        if (!five) continue;
        five.increase = (five.increase ?? 0) + change.delta;
        // A stored reading's growth corrected: no count of readings shows it, so it is never held back.
        if (!change.fresh) wide.corrects = true;
      }
    }
    let now = fiveMinutes;
    if (buffer) {
      const { merge, hold } = buffer.split(fiveMinutes, (await began) ?? 0);
      now = merge;
      held = { merged: merge, held: hold };
    }
    const folded = await upsertFiveMinutes(trx, now);
    // What came to steps already added to their hour and day is added to those too.
    if (folded.size > 0) {
      await sql`SELECT pg_advisory_xact_lock_shared(${DAYS_LOCK})`.execute(trx);
      await addToHoursAndDays(
        trx,
        [...now.map].flatMap(([id, wide]) => {
          const day = folded.get(id);
          return day === undefined ? [] : [{ ...wide, day }];
        }),
      );
    }
    const stored: StoredBatch = { fresh, duplicates: readings.length - fresh.length };
    await within?.(trx, stored);
    return stored;
  });
  if (buffer && held) buffer.committed(held.merged, held.held);
  return stored;
}
