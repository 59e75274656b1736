import { type Kysely, sql } from 'kysely';
import { MAX_SERIES_POINTS, type SeriesStep } from '../../contracts/monitoring.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { DAY_MS, DayClock, dayClock, FIVE_MINUTES_MS, HOUR_MS } from './telemetry/time-buckets.ts';

/** How long one step is, for counting points (raw: the telemetry interval). */
function stepMs(step: SeriesStep, intervalS: number): number {
  return { raw: intervalS * 1000, '5min': FIVE_MINUTES_MS, '1h': HOUR_MS, '1day': DAY_MS }[step];
}

/**
 * Steps not folded into their hour and day yet are recent: the fold (every minute) takes each step
 * a minute after it ends. Looking this far back for them keeps a chart's read to a few rows; a
 * reading that comes late to an old step shows in its hour and day at the next fold.
 */
const UNFOLDED_MS = 15 * 60_000;

/**
 * Where to look for steps not folded yet: from `from`, at most {@link UNFOLDED_MS} back, or to
 * `today` (the start of the day under way) when that is further: every step of the day under way
 * counts, folded or not, so today's energy per day is the sum of today's 5-minute steps however
 * far the fold lags (a device sending the readings it kept, a busy database).
 */
export function unfoldedFrom(from: number, now = Date.now(), today = now): string {
  return new Date(Math.max(from, Math.min(now - UNFOLDED_MS, today))).toISOString();
}

/** A named step may give up to a tenth more than the points an unnamed one stays under. */
const NAMED_STEP_SLACK = 1.1;

/**
 * The step of a series over `[from, to)`: the one named, if it gives at most about 2,000 points,
 * else the finest of `allowed` that gives at most 2,000.
 * @throws {ApiError} 400 naming `step` when the named step gives too many points.
 */
export function chooseStep(
  from: number,
  to: number,
  intervalS: number,
  allowed: readonly SeriesStep[],
  named?: SeriesStep,
): SeriesStep {
  const points = (step: SeriesStep) => (to - from) / stepMs(step, intervalS);
  if (named) {
    if (points(named) <= MAX_SERIES_POINTS * NAMED_STEP_SLACK) return named;
    throw new ApiError(
      400,
      'invalid_input',
      `step: ${named} steps over this range give about ${Math.round(points(named))} points; at most ${MAX_SERIES_POINTS} are answered`,
      'step',
    );
  }
  return allowed.find((step) => points(step) <= MAX_SERIES_POINTS) ?? '1day';
}

type Point = [number, number];

/**
 * Whether the step of the last point is still under way at the end of the range (or now): a day
 * ends at the next midnight in `zone`, other steps after their length.
 */
export function lastStepPartial(
  points: readonly Point[],
  step: SeriesStep,
  zone: string,
  to: number,
  now = Date.now(),
): boolean {
  const last = points.at(-1);
  if (!last || step === 'raw') return false;
  const clock = dayClock(zone);
  const end =
    step === '1day' ? clock.startOf(DayClock.next(clock.dayOf(last[0]))) : last[0] + stepMs(step, 0);
  return end > Math.min(to, now);
}

/** The stored readings of one metric, oldest first. */
export async function rawPoints(
  db: Kysely<Database>,
  deviceId: number,
  metric: string,
  from: number,
  to: number,
): Promise<Point[]> {
  const rows = await sql<{ t: number; v: number }>`
    SELECT (extract(epoch from device_time) * 1000)::float8 AS t, (vals->>${metric})::float8 AS v
    FROM telemetry_raw
    WHERE device_id = ${deviceId} AND device_time >= ${new Date(from).toISOString()}::timestamptz
      AND device_time < ${new Date(to).toISOString()}::timestamptz AND vals ? ${metric}
    ORDER BY device_time
    LIMIT ${Math.ceil(MAX_SERIES_POINTS * NAMED_STEP_SLACK) * 5}`.execute(db);
  return rows.rows.map((row) => [Math.round(row.t), row.v]);
}

/** Which value of a rollup step: its average, or a counter's increase. */
export type StepValue = 'average' | 'increase';

/** First step (of this kind) that begins at or after `at`: a step holding anything older is left out. */
function firstWholeStep(step: Exclude<SeriesStep, 'raw'>, days: DayClock, at: number): number {
  if (step === '1day') {
    const start = days.startOf(days.dayOf(at));
    return start === at ? at : days.startOf(days.dayOf(start + DAY_MS + HOUR_MS));
  }
  const length = step === '1h' ? HOUR_MS : FIVE_MINUTES_MS;
  return Math.ceil(at / length) * length;
}

/**
 * Rollup points of several devices' metrics (a device's own series is one pair), per step: each
 * device's average (or increase) over the step, then summed or averaged across the devices. Days
 * are those of `zone` (the site's): a point of a day stands at its local midnight. A series with
 * `since` (epoch ms: the caller sees nothing of that device before it, `VisibleDevice.seenFrom`)
 * counts only the steps that begin at or after it.
 */
export async function rollupPoints(
  db: Kysely<Database>,
  zone: string,
  series: readonly { deviceId: number; metric: string; since?: number | undefined }[],
  step: Exclude<SeriesStep, 'raw'>,
  value: StepValue,
  across: 'sum' | 'avg',
  from: number,
  to: number,
): Promise<Point[]> {
  if (series.length === 0) return [];
  const devices = sql`${series.map((s) => s.deviceId)}::int[]`;
  const metrics = sql`${series.map((s) => s.metric)}::text[]`;
  const days = dayClock(zone);
  // Per series, the first step it may count (the epoch when it may count all).
  const firsts = sql`${series.map((s) => new Date(s.since === undefined ? 0 : firstWholeStep(step, days, s.since)).toISOString())}::timestamptz[]`;
  // Each device's value in each step: the mean of its readings, or how much its counter grew.
  const perDevice = value === 'increase' ? sql`sum(r.increase)` : sql`sum(r.total) / nullif(sum(r.n), 0)`;
  const combine = across === 'sum' ? sql`sum(v)` : sql`avg(v)`;
  if (step === '1day') {
    const now = Date.now();
    // A day is its folded steps (telemetry_1d) and the 5-minute steps not folded into it yet.
    const rows = await sql<{ day: string; v: number | null }>`
      SELECT day::text AS day, ${combine} AS v FROM (
        SELECT r.device_id, r.day, ${perDevice} AS v FROM (
          SELECT d.device_id, d.day, d.n, d.total, d.increase
          FROM telemetry_1d d JOIN unnest(${devices}, ${metrics}, ${firsts}) AS s(device_id, metric, first)
            ON d.device_id = s.device_id AND d.metric = s.metric
          WHERE d.day >= ${days.dayOf(from)}::date AND d.day <= ${days.dayOf(to - 1)}::date
            AND d.day >= (s.first AT TIME ZONE ${days.zone})::date
          UNION ALL
          SELECT f.device_id, (f.bucket AT TIME ZONE ${days.zone})::date, f.n[p.i], f.total[p.i], f.increase[p.i]
          FROM telemetry_5m f JOIN unnest(${devices}, ${metrics}, ${firsts}) AS s(device_id, metric, first)
            ON f.device_id = s.device_id
          CROSS JOIN LATERAL (SELECT array_position(f.metrics, s.metric) AS i) p
          WHERE p.i IS NOT NULL AND NOT f.folded
            AND f.bucket >= ${unfoldedFrom(days.startOf(days.dayOf(from)), now, days.startOf(days.dayOf(now)))}::timestamptz
            AND f.bucket < ${new Date(to).toISOString()}::timestamptz AND f.bucket >= s.first) r
        GROUP BY r.device_id, r.day) per_device
      WHERE v IS NOT NULL
      GROUP BY day ORDER BY day`.execute(db);
    return rows.rows.flatMap((row) => (row.v === null ? [] : [[days.startOf(row.day), row.v] as Point]));
  }
  const fromStep = new Date(Math.floor(from / FIVE_MINUTES_MS) * FIVE_MINUTES_MS).toISOString();
  const end = new Date(to).toISOString();
  // An hour is its folded steps (telemetry_1h) and the 5-minute steps not folded into it yet.
  const source =
    step === '1h'
      ? sql`
        SELECT h.device_id, h.hour AS slot, h.n, h.total, h.increase
        FROM telemetry_1h h JOIN unnest(${devices}, ${metrics}, ${firsts}) AS s(device_id, metric, first)
          ON h.device_id = s.device_id AND h.metric = s.metric
        WHERE h.hour >= ${new Date(Math.floor(from / HOUR_MS) * HOUR_MS).toISOString()}::timestamptz
          AND h.hour < ${end}::timestamptz AND h.hour >= s.first
        UNION ALL
        SELECT f.device_id, date_trunc('hour', f.bucket), f.n[p.i], f.total[p.i], f.increase[p.i]
        FROM telemetry_5m f JOIN unnest(${devices}, ${metrics}, ${firsts}) AS s(device_id, metric, first)
          ON f.device_id = s.device_id
        CROSS JOIN LATERAL (SELECT array_position(f.metrics, s.metric) AS i) p
        WHERE p.i IS NOT NULL AND NOT f.folded AND f.bucket >= ${unfoldedFrom(Date.parse(fromStep))}::timestamptz
          AND f.bucket < ${end}::timestamptz AND date_trunc('hour', f.bucket) >= s.first`
      : sql`
        SELECT f.device_id, f.bucket AS slot, f.n[p.i] AS n, f.total[p.i] AS total, f.increase[p.i] AS increase
        FROM telemetry_5m f JOIN unnest(${devices}, ${metrics}, ${firsts}) AS s(device_id, metric, first)
          ON f.device_id = s.device_id
        CROSS JOIN LATERAL (SELECT array_position(f.metrics, s.metric) AS i) p
        WHERE p.i IS NOT NULL AND f.bucket >= ${fromStep}::timestamptz AND f.bucket < ${end}::timestamptz
          AND f.bucket >= s.first`;
  const rows = await sql<{ t: number; v: number | null }>`
    SELECT (extract(epoch from slot) * 1000)::float8 AS t, ${combine} AS v FROM (
      SELECT r.device_id, r.slot, ${perDevice} AS v FROM (${source}) r
      GROUP BY r.device_id, r.slot) per_device
    WHERE v IS NOT NULL
    GROUP BY slot ORDER BY slot`.execute(db);
  return rows.rows.flatMap((row) => (row.v === null ? [] : [[Math.round(row.t), row.v] as Point]));
}
