import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { emptyStep, type StepAggregate } from './rollup-math.ts';
import { HOUR_MS } from './time-buckets.ts';

/** One metric of one device in one hour or day (`telemetry_1h`, `telemetry_1d`). */
export interface StepKey {
  deviceId: number;
  metric: string;
  /** Epoch ms of an hour or a 5-minute step, or a `YYYY-MM-DD` day. */
  step: number | string;
}

/** `into` with `step` merged in, as the upserts merge them. */
export function mergeInto(into: StepAggregate, step: StepAggregate): void {
  into.n += step.n;
  into.total += step.total;
  if (step.min !== null) into.min = into.min === null ? step.min : Math.min(into.min, step.min);
  if (step.max !== null) into.max = into.max === null ? step.max : Math.max(into.max, step.max);
  if (step.lastAt !== null && (into.lastAt === null || step.lastAt > into.lastAt)) {
    into.last = step.last;
    into.lastAt = step.lastAt;
  }
  if (step.increase !== null) into.increase = (into.increase ?? 0) + step.increase;
}

/** Hourly or daily steps by key, merged as they come in. */
export class Steps<K extends number | string> {
  readonly map = new Map<string, { key: StepKey; step: StepAggregate }>();

  at(deviceId: number, metric: string, step: K, counter: boolean): StepAggregate {
    const id = `${deviceId}\u0000${metric}\u0000${step}`;
    let entry = this.map.get(id);
    if (!entry) {
      entry = { key: { deviceId, metric, step }, step: emptyStep(counter) };
      this.map.set(id, entry);
    }
    return entry.step;
  }
}

/**
 * A device's 5-minute step: every metric of its product side by side (`telemetry_5m` holds one row
 * per device, step and list of metrics, the metrics' figures in arrays), so a reading costs one
 * row to merge, not one per metric.
 */
export interface WideStep {
  deviceId: number;
  bucket: number;
  metrics: readonly string[];
  steps: StepAggregate[];
}

/** A 5-minute step with the day it belongs to: `YYYY-MM-DD` in its device's site's time zone. */
export type DatedStep = WideStep & { day: string };

/**
 * The day of a 5-minute step, in SQL: the calendar date of its start in the time zone of its
 * device's site (`f` a row of `telemetry_5m`, `s` its site). Days are counted by the database, so
 * the fold, a late reading and re-counting after a zone change all agree.
 */
export const STEP_DAY = sql<string>`(f.bucket AT TIME ZONE s.time_zone)::date::text`;

/**
 * Folding takes this advisory lock shared; re-counting a site's days after its zone changed takes
 * it alone, so no step is added to a day of the old zone while the days are counted again.
 */
export const DAYS_LOCK = 7261002;

/** A product's metric list as the 5-minute steps key it: its names, joined once per list. */
interface MetricList {
  names: string[];
  key: string;
}

const lists = new WeakMap<readonly { name: string }[], MetricList>();

/** A product's metric names and their key, worked out once per list (not once per reading). */
function metricList(metrics: readonly { name: string }[]): MetricList {
  let list = lists.get(metrics);
  if (!list) {
    const names = metrics.map((m) => m.name);
    list = { names, key: names.join(',') };
    lists.set(metrics, list);
  }
  return list;
}

/** The id of a 5-minute step in {@link WideSteps.map} and in what {@link upsertFiveMinutes} answers. */
export function wideStepId(deviceId: number, bucket: number, metricsKey: string): string {
  return `${deviceId}\u0000${bucket}\u0000${metricsKey}`;
}

/**
 * 5-minute steps by device and step start (and list of metrics), merged as readings come in.
 * A reading looks its step up once ({@link WideSteps.step}), then adds to each metric by position.
 */
export class WideSteps {
  readonly map = new Map<string, WideStep>();
  /**
   * The steps of one device, by step start, for each list of metric names (two lists of the same
   * names, as after the catalogue was read again, share their steps): found without building a key.
   */
  private readonly byList = new Map<string, Map<number, Map<number, WideStep>>>();

  /** The device's step at `bucket` for this metric list (created empty, every metric of the list). */
  step(deviceId: number, bucket: number, metrics: readonly { name: string; counter: boolean }[]): WideStep {
    const list = metricList(metrics);
    let devices = this.byList.get(list.key);
    if (!devices) {
      devices = new Map();
      this.byList.set(list.key, devices);
    }
    let buckets = devices.get(deviceId);
    if (!buckets) {
      buckets = new Map();
      devices.set(deviceId, buckets);
    }
    let wide = buckets.get(bucket);
    if (!wide) {
      wide = { deviceId, bucket, metrics: list.names, steps: metrics.map((m) => emptyStep(m.counter)) };
      buckets.set(bucket, wide);
      this.map.set(wideStepId(deviceId, bucket, list.key), wide);
    }
    return wide;
  }

  /** The step's figures of one metric (created empty, for every metric of the list, on first use). */
  at(
    deviceId: number,
    bucket: number,
    metrics: readonly { name: string; counter: boolean }[],
    metric: string,
  ): StepAggregate | undefined {
    const wide = this.step(deviceId, bucket, metrics);
    return wide.steps[wide.metrics.indexOf(metric)];
  }
}

/**
 * The stored row of a wide step, as JSON for `json_to_recordset` (one parameter, fast to build and
 * for the database to read): its start in epoch ms, its metric list by position in the batch's
 * lists (`m`), and, when every metric holds one value taken at one time (the step got one reading
 * with every metric: the usual case), the values alone (`total`) with that time (`at`, epoch ms),
 * since count, least, greatest and newest follow from them; otherwise every figure, the newest
 * values' times written out (once per run of equal times).
 */
function wideRow(step: WideStep, m: number) {
  const count = step.steps.length;
  const total = new Array<number>(count);
  const increase = new Array<number | null>(count);
  const at = step.steps[0]?.lastAt ?? null;
  let single = at !== null;
  for (let i = 0; i < count; i++) {
    const s = step.steps[i] as StepAggregate;
    total[i] = s.total;
    increase[i] = s.increase;
    if (s.n !== 1 || s.lastAt !== at) single = false;
  }
  const row = { device_id: step.deviceId, b: step.bucket, m, total, increase };
  if (single) return { ...row, at };
  const n = new Array<number>(count);
  const min = new Array<number | null>(count);
  const max = new Array<number | null>(count);
  const last = new Array<number | null>(count);
  const lastAt = new Array<string | null>(count);
  let isoOf = Number.NaN;
  let iso = '';
  for (let i = 0; i < count; i++) {
    const s = step.steps[i] as StepAggregate;
    n[i] = s.n;
    min[i] = s.min;
    max[i] = s.max;
    last[i] = s.last;
    if (s.lastAt === null) lastAt[i] = null;
    else {
      if (s.lastAt !== isoOf) {
        isoOf = s.lastAt;
        iso = new Date(s.lastAt).toISOString();
      }
      lastAt[i] = iso;
    }
  }
  return { ...row, n, min, max, last, last_at: lastAt };
}

/**
 * A stored 5-minute step (`t`) with a batch's step of the same metrics (`EXCLUDED`) merged in,
 * metric by metric: counts and sums add, least and greatest keep theirs, the newest value goes by
 * its time, increases add (as {@link mergeInto}). All fourteen arrays are walked side by side in one
 * `unnest` and built again in the same pass, where the `telemetry_*` functions of migration 10 ran
 * a subquery and a sort per column: those cost the database about four times as much per step
 * merged, which at a reading a second from every device was most of its time. The aggregates take
 * their input in the order the one function scan yields it, the metrics' order.
 */
const MERGE_WIDE = sql`(n, total, min, max, last, last_at, increase) = (
  SELECT array_agg(coalesce(an, 0) + coalesce(bn, 0)),
         array_agg(CASE WHEN asum IS NULL THEN bsum WHEN bsum IS NULL THEN asum ELSE asum + bsum END),
         array_agg(LEAST(alo, blo)),
         array_agg(GREATEST(ahi, bhi)),
         array_agg(CASE WHEN bat IS NOT NULL AND (aat IS NULL OR bat > aat) THEN blast ELSE alast END),
         array_agg(GREATEST(aat, bat)),
         array_agg(CASE WHEN ainc IS NULL THEN binc WHEN binc IS NULL THEN ainc ELSE ainc + binc END)
  FROM unnest(t.n, EXCLUDED.n, t.total, EXCLUDED.total, t.min, EXCLUDED.min, t.max, EXCLUDED.max,
              t.last, EXCLUDED.last, t.last_at, EXCLUDED.last_at, t.increase, EXCLUDED.increase)
    AS m(an, bn, asum, bsum, alo, blo, ahi, bhi, alast, blast, aat, bat, ainc, binc))`;

/**
 * Merge 5-minute steps in one upsert ({@link MERGE_WIDE}). Answers the ids (`deviceId, bucket,
 * metrics`) of steps already folded into their hour and day, with their day: what was merged into
 * those must go there too.
 */
export async function upsertFiveMinutes(
  trx: Transaction<Database>,
  steps: WideSteps,
): Promise<Map<string, string>> {
  if (steps.map.size === 0) return new Map();
  // In key order, so that batches of several processes lock rows in one order.
  const rows = [...steps.map.values()].sort((a, b) => a.deviceId - b.deviceId || a.bucket - b.bucket);
  // Each list of metric names once (a batch's products share a few), the rows by position.
  const lists = new Map<readonly string[], number>();
  const json = JSON.stringify(
    rows.map((row) => {
      let m = lists.get(row.metrics);
      if (m === undefined) {
        m = lists.size;
        lists.set(row.metrics, m);
      }
      return wideRow(row, m);
    }),
  );
  const folded = await sql<{ device_id: number; t: number; metrics: string[]; day: string }>`
    WITH lists AS MATERIALIZED (
      SELECT (i - 1)::int AS m, ARRAY(SELECT jsonb_array_elements_text(l)) AS metrics
      FROM jsonb_array_elements(${JSON.stringify([...lists.keys()])}::jsonb) WITH ORDINALITY AS e(l, i)),
    merged AS (
      INSERT INTO telemetry_5m AS t (device_id, bucket, metrics, n, total, min, max, last, last_at, increase)
      SELECT x.device_id, to_timestamp(x.b / 1000), (SELECT metrics FROM lists WHERE lists.m = x.m),
             coalesce(x.n, array_fill(1, ARRAY[cardinality(x.total)])), x.total,
             coalesce(x.min, x.total), coalesce(x.max, x.total), coalesce(x.last, x.total),
             coalesce(x.last_at, array_fill(to_timestamp(x.at / 1000), ARRAY[cardinality(x.total)])),
             x.increase
      FROM json_to_recordset(${json}::json) AS x(
        device_id int, b float8, m int, n int[], total float8[], min float8[], max float8[],
        last float8[], last_at timestamptz[], at float8, increase float8[])
      ON CONFLICT (device_id, bucket, metrics) DO UPDATE SET ${MERGE_WIDE}
      RETURNING device_id, bucket, metrics, folded)
    SELECT f.device_id, (extract(epoch from f.bucket) * 1000)::float8 AS t, f.metrics, ${STEP_DAY} AS day
    FROM merged f JOIN devices d ON d.id = f.device_id JOIN sites s ON s.id = d.site_id
    WHERE f.folded`.execute(trx);
  return new Map(
    folded.rows.map((row) => [wideStepId(row.device_id, Math.round(row.t), row.metrics.join(',')), row.day]),
  );
}

/** How a stored hourly or daily step takes in more: as {@link mergeInto}. */
const MERGE = sql`
  n = t.n + EXCLUDED.n,
  total = t.total + EXCLUDED.total,
  min = LEAST(t.min, EXCLUDED.min),
  max = GREATEST(t.max, EXCLUDED.max),
  last = CASE WHEN t.last_at IS NULL OR EXCLUDED.last_at > t.last_at THEN EXCLUDED.last ELSE t.last END,
  last_at = GREATEST(t.last_at, EXCLUDED.last_at),
  increase = CASE WHEN EXCLUDED.increase IS NULL THEN t.increase
                  ELSE coalesce(t.increase, 0) + EXCLUDED.increase END`;

/** Merge hourly or daily steps in one upsert. */
export async function upsertCoarse(
  trx: Kysely<Database>,
  table: 'telemetry_1h' | 'telemetry_1d',
  steps: Steps<number> | Steps<string>,
): Promise<void> {
  if (steps.map.size === 0) return;
  const column = table === 'telemetry_1h' ? 'hour' : 'day';
  const rows = [...steps.map.values()].map(({ key, step }) => ({
    device_id: key.deviceId,
    metric: key.metric,
    step: typeof key.step === 'number' ? new Date(key.step).toISOString() : key.step,
    n: step.n,
    total: step.total,
    min: step.min,
    max: step.max,
    last: step.last,
    last_at: step.lastAt === null ? null : new Date(step.lastAt).toISOString(),
    increase: step.increase,
  }));
  await sql`
    INSERT INTO ${sql.table(table)} AS t (device_id, metric, ${sql.ref(column)}, n, total, min, max, last, last_at, increase)
    SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(
      device_id int, metric text, step ${sql.raw(table === 'telemetry_1h' ? 'timestamptz' : 'date')}, n int,
      total float8, min float8, max float8, last float8, last_at timestamptz, increase float8)
    ON CONFLICT (device_id, metric, ${sql.ref(column)}) DO UPDATE SET ${MERGE}`.execute(trx);
}

/**
 * 5-minute steps merged into their hours and days, metric by metric (the fold, and what comes late
 * to a folded step). Call it holding {@link DAYS_LOCK} shared, in the transaction that read the
 * steps' days.
 */
export async function addToHoursAndDays(trx: Kysely<Database>, steps: Iterable<DatedStep>): Promise<void> {
  const hourly = new Steps<number>();
  const daily = new Steps<string>();
  for (const wide of steps) {
    const hour = Math.floor(wide.bucket / HOUR_MS) * HOUR_MS;
    const { day } = wide;
    wide.steps.forEach((step, i) => {
      const metric = wide.metrics[i] as string;
      if (step.n === 0 && !step.increase) return;
      const counter = step.increase !== null;
      mergeInto(hourly.at(wide.deviceId, metric, hour, counter), step);
      mergeInto(daily.at(wide.deviceId, metric, day, counter), step);
    });
  }
  await upsertCoarse(trx, 'telemetry_1h', hourly);
  await upsertCoarse(trx, 'telemetry_1d', daily);
}
