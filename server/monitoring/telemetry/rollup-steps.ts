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
  /** How many readings were added (a counter's correction adds none). */
  readings: number;
  /** It corrects the growth of a stored reading of an energy counter (a reading came in before it). */
  corrects?: boolean;
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

const keys = new WeakMap<readonly string[], string>();

/** A list of metric names as a step's key holds it, joined once per list. */
function namesKey(names: readonly string[]): string {
  let key = keys.get(names);
  if (key === undefined) {
    key = names.join(',');
    keys.set(names, key);
  }
  return key;
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
  /** What {@link prepare} worked out, and for how many steps. */
  private prepared:
    | { size: number; lists: { key: string; names: readonly string[]; columns: StepColumns }[] }
    | undefined;

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
      wide = {
        deviceId,
        bucket,
        metrics: list.names,
        steps: metrics.map((m) => emptyStep(m.counter)),
        readings: 0,
      };
      buckets.set(bucket, wide);
      this.map.set(wideStepId(deviceId, bucket, list.key), wide);
    }
    return wide;
  }

  /**
   * The steps as {@link upsertFiveMinutes} sends them: by list of metric names (lists of the same
   * names as one), the lists in the order of their names and each one's steps in key order, so
   * that batches of several processes lock rows in one order; each list's steps as columns. Worked
   * out again only when steps were added since (a counter's correction may add one; one that
   * changes a step's increase is read when the columns are sent).
   */
  prepare(): { key: string; names: readonly string[]; columns: StepColumns }[] {
    if (this.prepared?.size === this.map.size) return this.prepared.lists;
    // Steps by list: by the list's array first (steps share a few), then lists of the same names as one.
    const byArray = new Map<readonly string[], WideStep[]>();
    for (const step of this.map.values()) {
      const list = byArray.get(step.metrics);
      if (list) list.push(step);
      else byArray.set(step.metrics, [step]);
    }
    const byNames = new Map<string, { names: readonly string[]; rows: WideStep[] }>();
    for (const [names, rows] of byArray) {
      const key = names.join(',');
      const group = byNames.get(key);
      if (group) group.rows.push(...rows);
      else byNames.set(key, { names, rows });
    }
    const lists = [...byNames.keys()].sort().map((key) => {
      const { names, rows } = byNames.get(key) as { names: readonly string[]; rows: WideStep[] };
      rows.sort((a, b) => a.deviceId - b.deviceId || a.bucket - b.bucket);
      const columns = new StepColumns();
      for (const row of rows) columns.add(row);
      columns.literals();
      return { key, names, columns };
    });
    this.prepared = { size: this.map.size, lists };
    return lists;
  }

  /**
   * `wide` merged in, its figures and its count of readings (the step itself kept when it is new):
   * a batch's steps joining those held back ({@link StepBuffer}). Such steps are found by their
   * id only; {@link step} does not see them.
   */
  merge(wide: WideStep): void {
    const id = wideStepId(wide.deviceId, wide.bucket, namesKey(wide.metrics));
    this.prepared = undefined;
    const into = this.map.get(id);
    if (!into) {
      this.map.set(id, wide);
      return;
    }
    for (let i = 0; i < into.steps.length; i++)
      mergeInto(into.steps[i] as StepAggregate, wide.steps[i] as StepAggregate);
    into.readings += wide.readings;
  }
}

/**
 * An array literal of numbers (`{1.5,null,2}`): JSON's numbers are PostgreSQL's, and a value JSON
 * cannot write (not finite) is null in both.
 */
function numbers(values: readonly (number | null)[]): string {
  const json = JSON.stringify(values);
  return `{${json.slice(1, -1)}}`;
}

/**
 * An array literal of array literals, for a `text[]` parameter cast row by row: each element
 * quoted (it holds only numbers, `null`, commas and ISO times, nothing to escape), `null` for none.
 * Written here rather than by the driver, which quotes and escapes each element of each array.
 */
function rowsLiteral(rows: readonly (string | null)[]): string {
  let text = '{';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] ?? null;
    if (i > 0) text += ',';
    text += row === null ? 'NULL' : `"${row}"`;
  }
  return `${text}}`;
}

/**
 * A batch's steps of one metric list as the parameters of {@link upsertFiveMinutes}: per step its
 * device, start (epoch ms), and each figure as an array literal (one parameter per column, one
 * element per step; the database reads a literal of numbers about four times faster than the same
 * numbers in JSON). Figures shared by every metric go once: the newest values' time (`at`, epoch
 * ms) and the count (`count`) when all metrics have the same (the usual case: each reading holds
 * every metric), the times written out otherwise (once per run of equal times); when that count is
 * one, least, greatest and newest are the values (`total`) and are not sent.
 */
class StepColumns {
  readonly deviceId: number[] = [];
  readonly bucket: number[] = [];
  readonly readings: number[] = [];
  readonly count: (number | null)[] = [];
  readonly at: (number | null)[] = [];
  readonly total: string[] = [];
  readonly n: (string | null)[] = [];
  readonly min: (string | null)[] = [];
  readonly max: (string | null)[] = [];
  readonly last: (string | null)[] = [];
  readonly lastAt: (string | null)[] = [];
  /** The steps added, in order: their increases are read when the parameters are (see there). */
  private readonly rows: WideStep[] = [];

  add(step: WideStep): void {
    const count = step.steps.length;
    const total = new Array<number>(count);
    const first = step.steps[0];
    const at = first?.lastAt ?? null;
    const n = first?.n ?? 0;
    let sameAt = at !== null;
    let sameN = true;
    for (let i = 0; i < count; i++) {
      const s = step.steps[i] as StepAggregate;
      total[i] = s.total;
      if (s.lastAt !== at) sameAt = false;
      if (s.n !== n) sameN = false;
    }
    this.rows.push(step);
    this.deviceId.push(step.deviceId);
    this.bucket.push(step.bucket);
    this.readings.push(step.readings);
    this.total.push(numbers(total));
    this.at.push(sameAt ? at : null);
    this.count.push(sameN ? n : null);
    this.n.push(sameN ? null : numbers(step.steps.map((s) => s.n)));
    if (sameAt && sameN && n === 1) {
      this.min.push(null);
      this.max.push(null);
      this.last.push(null);
    } else {
      this.min.push(numbers(step.steps.map((s) => s.min)));
      this.max.push(numbers(step.steps.map((s) => s.max)));
      this.last.push(numbers(step.steps.map((s) => s.last)));
    }
    if (sameAt) {
      this.lastAt.push(null);
      return;
    }
    let lastAt = '{';
    let isoOf = Number.NaN;
    let iso = '';
    for (let i = 0; i < count; i++) {
      const time = (step.steps[i] as StepAggregate).lastAt;
      if (i > 0) lastAt += ',';
      if (time === null) lastAt += 'null';
      else {
        if (time !== isoOf) {
          isoOf = time;
          iso = new Date(time).toISOString();
        }
        lastAt += iso;
      }
    }
    this.lastAt.push(`${lastAt}}`);
  }

  /** The literals of every column but the increases: see {@link parameters}. */
  private fixed: [string, string, string, string, string, string, ...string[]] | undefined;

  /**
   * The literals of every column but the increases, worked out once, when every step has been
   * added (a step's figures other than its increase are its readings' own and do not change).
   */
  literals(): [string, string, string, string, string, string, ...string[]] {
    this.fixed ??= [
      numbers(this.deviceId),
      numbers(this.bucket),
      numbers(this.readings),
      numbers(this.count),
      numbers(this.at),
      rowsLiteral(this.total),
      rowsLiteral(this.n),
      rowsLiteral(this.min),
      rowsLiteral(this.max),
      rowsLiteral(this.last),
      rowsLiteral(this.lastAt),
    ];
    return this.fixed;
  }

  /**
   * The parameters, in the order of {@link upsertFiveMinutes}'s `unnest`. The increases are read
   * from the steps now, not when they were added: a batch's counter corrections come to steps
   * already added.
   */
  parameters(): string[] {
    const increases = this.rows.map(({ steps }) => {
      const increase = new Array<number | null>(steps.length);
      for (let i = 0; i < steps.length; i++) increase[i] = (steps[i] as StepAggregate).increase;
      return numbers(increase);
    });
    const [ids, buckets, readings, counts, ats, totals, ...figures] = this.literals();
    return [ids, buckets, readings, counts, ats, totals, rowsLiteral(increases), ...figures];
  }
}

const merges = new Map<number, ReturnType<typeof sql.raw>>();

/**
 * A stored 5-minute step (`t`) with a batch's step of the same metrics (`EXCLUDED`) merged in,
 * metric by metric: counts and sums add, least and greatest keep theirs, the newest value goes by
 * its time, increases add (as {@link mergeInto}). Written out element by element for a list of
 * `count` metrics (a step's key holds its metric list, so the stored arrays are as long): plain
 * expressions, where walking the arrays in an `unnest` subquery and building them again with
 * `array_agg` cost the database about three times as much per step for the merge itself (29 µs a
 * step with the upsert around it, against 49–53: the rows of fourteen functions stored and read
 * back, seven aggregates set up, for every step merged; docs/api.md).
 */
function mergeWide(count: number) {
  let merge = merges.get(count);
  if (!merge) {
    const each = (element: (i: number) => string) =>
      `ARRAY[${Array.from({ length: count }, (_, i) => element(i + 1)).join(', ')}]`;
    const add = (column: string) =>
      each(
        (i) =>
          `CASE WHEN t.${column}[${i}] IS NULL THEN EXCLUDED.${column}[${i}] WHEN EXCLUDED.${column}[${i}] IS NULL THEN t.${column}[${i}] ELSE t.${column}[${i}] + EXCLUDED.${column}[${i}] END`,
      );
    // Null (a step stored before readings were counted) stays null: its count is unknown.
    const readings = 'readings = t.readings + EXCLUDED.readings';
    merge = sql.raw(
      count === 0
        ? readings
        : [
            `n = ${each((i) => `coalesce(t.n[${i}], 0) + coalesce(EXCLUDED.n[${i}], 0)`)}`,
            `total = ${add('total')}`,
            `min = ${each((i) => `LEAST(t.min[${i}], EXCLUDED.min[${i}])`)}`,
            `max = ${each((i) => `GREATEST(t.max[${i}], EXCLUDED.max[${i}])`)}`,
            `last = ${each((i) => `CASE WHEN EXCLUDED.last_at[${i}] IS NOT NULL AND (t.last_at[${i}] IS NULL OR EXCLUDED.last_at[${i}] > t.last_at[${i}]) THEN EXCLUDED.last[${i}] ELSE t.last[${i}] END`)}`,
            `last_at = ${each((i) => `GREATEST(t.last_at[${i}], EXCLUDED.last_at[${i}])`)}`,
            `increase = ${add('increase')}`,
            readings,
          ].join(',\n'),
    );
    merges.set(count, merge);
  }
  return merge;
}

/**
 * Merge 5-minute steps ({@link mergeWide}): one upsert per list of metric names in the batch (a
 * batch's products share a few), the lists in the order of their names and each one's steps in key
 * order, so that batches of several processes lock rows in one order. Answers the ids (`deviceId,
 * bucket, metrics`) of steps already folded into their hour and day, with their day: what was
 * merged into those must go there too.
 *
 * `unlessFolded` (the steps a process held back, {@link StepBuffer}) leaves a folded step as it
 * is: the fold worked it out again from the raw rows, which held those readings (rollup-fold.ts).
 */
export async function upsertFiveMinutes(
  trx: Transaction<Database>,
  steps: WideSteps,
  { unlessFolded = false } = {},
): Promise<Map<string, string>> {
  const folded = new Map<string, string>();
  for (const { key, names, columns } of steps.prepare()) {
    const [ids, buckets, readings, counts, ats, totals, increases, ns, mins, maxes, lasts, lastAts] =
      columns.parameters();
    const count = names.length;
    const answer = await sql<{ device_id: number; t: number; day: string | null }>`
      WITH merged AS (
        INSERT INTO telemetry_5m AS t (device_id, bucket, metrics, n, total, min, max, last, last_at, increase, readings)
        SELECT x.device_id, to_timestamp(x.b / 1000), ${names}::text[],
               coalesce(x.n, array_fill(x.count, ARRAY[${count}::int])), x.total,
               coalesce(x.min, x.total), coalesce(x.max, x.total), coalesce(x.last, x.total),
               coalesce(x.last_at, array_fill(to_timestamp(x.at / 1000), ARRAY[${count}::int])), x.increase,
               x.readings
        FROM (SELECT u.device_id, u.b, u.readings, u.count, u.at, u.total::float8[] AS total,
                     u.increase::float8[] AS increase, u.n::int[] AS n, u.min::float8[] AS min,
                     u.max::float8[] AS max, u.last::float8[] AS last, u.last_at::timestamptz[] AS last_at
              FROM unnest(${ids}::int[], ${buckets}::float8[], ${readings}::int[], ${counts}::int[], ${ats}::float8[],
                          ${totals}::text[], ${increases}::text[], ${ns}::text[], ${mins}::text[],
                          ${maxes}::text[], ${lasts}::text[], ${lastAts}::text[])
                AS u(device_id, b, readings, count, at, total, increase, n, min, max, last, last_at)
              OFFSET 0) x
        ON CONFLICT (device_id, bucket, metrics) DO UPDATE SET ${mergeWide(count)}
          ${unlessFolded ? sql`WHERE NOT t.folded` : sql``}
        RETURNING device_id, bucket, folded)
      SELECT f.device_id, (extract(epoch from f.bucket) * 1000)::float8 AS t,
             (SELECT ${STEP_DAY} FROM devices d JOIN sites s ON s.id = d.site_id WHERE d.id = f.device_id) AS day
      FROM merged f WHERE f.folded`.execute(trx);
    // A device without a site has no day (as the fold, which joins the site, leaves its steps).
    for (const row of answer.rows)
      if (row.day !== null) folded.set(wideStepId(row.device_id, Math.round(row.t), key), row.day);
  }
  return folded;
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
