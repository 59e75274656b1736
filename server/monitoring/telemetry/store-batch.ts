import { type Kysely, sql, type Transaction } from 'kysely';
import type { TelemetryCount } from '../../../contracts/monitoring.ts';
import type { TelemetrySpec } from '../../../src/device-config/telemetry-spec.ts';
import type { Database } from '../../db/schema.ts';
import type { Reading } from './read-frame.ts';
import { addToStep, type CounterPoint, increaseChanges, type StepAggregate } from './rollup-math.ts';
import { addToHoursAndDays, DAYS_LOCK, upsertFiveMinutes, WideSteps } from './rollup-steps.ts';
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

/** A device's latest reading as stored before a batch: its time, and its energy counters' values. */
type LatestBefore = Map<number, { at: number; values: Record<string, number> }>;

/**
 * New readings into `telemetry_raw` and each device's newest of them into `telemetry_latest`
 * (unless a newer one is stored already), in one statement; answers the readings actually
 * inserted (not already stored), in the order given, and each of their devices' latest reading as
 * it was before (every part of one statement sees the tables as they were when it began): its
 * time and the values of `counters` only, all the counter windows need. Usually every reading is
 * new: then the keys of the inserted ones are not sent back, a count is enough.
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
             (SELECT coalesce(jsonb_object_agg(k, v), '{}'::jsonb) FROM jsonb_each(l.vals) AS c(k, v)
              WHERE k = ANY(${[...counters]}::text[])) AS counters
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
  series: { deviceId: number; metric: string; from: number; to: number }[],
  latest: ReadonlyMap<number, { at: number; values: Record<string, number> }>,
  fresh: readonly Reading[],
): Promise<Map<string, { at: number; value: number }[]>> {
  const windows = new Map<string, { at: number; value: number }[]>();
  const inOrder = (s: (typeof series)[number]) => {
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
  for (const s of series.filter(inOrder)) {
    const before = latest.get(s.deviceId);
    const value = before?.values[s.metric];
    const window = value === undefined || !before ? [] : [{ at: before.at, value }];
    for (const reading of freshOf.get(s.deviceId) ?? []) {
      const v = reading.values[s.metric];
      if (v !== undefined) window.push({ at: reading.deviceTime, value: v });
    }
    windows.set(`${s.deviceId}\u0000${s.metric}`, window);
  }
  const late = series.filter((s) => !inOrder(s));
  if (late.length === 0) return windows;
  const rows = await sql<{ device_id: number; metric: string; t: number; v: number }>`
    SELECT s.device_id, s.metric, (extract(epoch from r.device_time) * 1000)::float8 AS t, r.v
    FROM unnest(${late.map((s) => s.deviceId)}::int[], ${late.map((s) => s.metric)}::text[],
                ${late.map((s) => new Date(s.from).toISOString())}::timestamptz[],
                ${late.map((s) => new Date(s.to).toISOString())}::timestamptz[]) AS s(device_id, metric, t0, t1)
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
    const key = `${row.device_id}\u0000${row.metric}`;
    const list = windows.get(key) ?? [];
    list.push({ at: Math.round(row.t), value: row.v });
    windows.set(key, list);
  }
  for (const list of windows.values()) list.sort((a, b) => a.at - b.at);
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
 * Store a batch of readings in one transaction: the raw rows and each device's latest reading in
 * one statement (a reading already stored, same device and device time, is left out), then the
 * 5-minute rollups of every metric merged in one upsert (and into their days where a step was
 * already folded into its day, rollup-fold.ts), energy counters' increases corrected around
 * readings that arrived out of order. `within` runs last, in the same
 * transaction (counts, a NOTIFY), so it commits with the readings or not at all.
 */
export async function storeBatch(
  db: Kysely<Database>,
  readings: readonly Reading[],
  specOf: SpecLookup,
  within?: (trx: Transaction<Database>, stored: StoredBatch) => Promise<void>,
): Promise<StoredBatch> {
  // The first of two readings with one key wins, in the batch as against the table.
  const unique = new Map<string, Reading>();
  for (const reading of readings) {
    const key = `${reading.deviceId}:${reading.deviceTime}`;
    if (!unique.has(key)) unique.set(key, reading);
  }
  const candidates = [...unique.values()];
  return db.transaction().execute(async (trx) => {
    // The energy counters of the batch's models: of the latest before, only these are read.
    const counters = new Set<string>();
    for (const modelId of new Set(candidates.map((r) => r.modelId)))
      for (const metric of specOf(modelId)?.metrics ?? []) if (metric.counter) counters.add(metric.name);
    const { fresh, before } =
      candidates.length > 0
        ? await insertReadings(trx, candidates, [...counters])
        : { fresh: [], before: new Map() as LatestBefore };
    fresh.sort((a, b) => a.deviceTime - b.deviceTime);
    const fiveMinutes = new WideSteps();
    const counterSeries = new Map<
      string,
      { deviceId: number; modelId: string; metric: string; from: number; to: number }
    >();
    for (const reading of fresh) {
      const spec = specOf(reading.modelId);
      if (!spec) continue;
      const { metrics } = spec;
      const wide = fiveMinutes.step(reading.deviceId, bucket5m(reading.deviceTime), metrics);
      for (let i = 0; i < metrics.length; i++) {
        const metric = metrics[i] as (typeof metrics)[number];
        const value = reading.values[metric.name];
        if (value === undefined) continue;
        addToStep(wide.steps[i] as StepAggregate, value, reading.deviceTime);
        if (!metric.counter) continue;
        const key = `${reading.deviceId}\u0000${metric.name}`;
        const series = counterSeries.get(key);
        if (!series)
          counterSeries.set(key, {
            deviceId: reading.deviceId,
            modelId: reading.modelId,
            metric: metric.name,
            from: reading.deviceTime,
            to: reading.deviceTime,
          });
        else series.to = reading.deviceTime;
      }
    }
    const freshAt = new Set(fresh.map((r) => `${r.deviceId}:${r.deviceTime}`));
    const windows = await counterWindows(trx, [...counterSeries.values()], before, fresh);
    for (const series of counterSeries.values()) {
      const window = windows.get(`${series.deviceId}\u0000${series.metric}`) ?? [];
      const points: CounterPoint[] = window.map((p) => ({
        ...p,
        fresh: freshAt.has(`${series.deviceId}:${p.at}`),
      }));
      const metrics = specOf(series.modelId)?.metrics ?? [];
      for (const change of increaseChanges(points)) {
        const five = fiveMinutes.at(series.deviceId, bucket5m(change.at), metrics, series.metric);
        if (five) five.increase = (five.increase ?? 0) + change.delta;
      }
    }
    const folded = await upsertFiveMinutes(trx, fiveMinutes);
    // What came to steps already added to their hour and day is added to those too.
    if (folded.size > 0) {
      await sql`SELECT pg_advisory_xact_lock_shared(${DAYS_LOCK})`.execute(trx);
      await addToHoursAndDays(
        trx,
        [...fiveMinutes.map].flatMap(([id, wide]) => {
          const day = folded.get(id);
          return day === undefined ? [] : [{ ...wide, day }];
        }),
      );
    }
    const stored: StoredBatch = { fresh, duplicates: readings.length - fresh.length };
    await within?.(trx, stored);
    return stored;
  });
}
