import { type Kysely, sql } from 'kysely';
import { MAX_SERIES_POINTS, type SeriesStep } from '../../contracts/monitoring.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { DAY_MS, type DayClock, FIVE_MINUTES_MS, HOUR_MS } from './telemetry/time-buckets.ts';

/** How long one step is, for counting points (raw: the telemetry interval). */
function stepMs(step: SeriesStep, intervalS: number): number {
  return { raw: intervalS * 1000, '5min': FIVE_MINUTES_MS, '1h': HOUR_MS, '1day': DAY_MS }[step];
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

/**
 * Rollup points of several devices' metrics (a device's own series is one pair), per step: each
 * device's average (or increase) over the step, then summed or averaged across the devices.
 */
export async function rollupPoints(
  db: Kysely<Database>,
  days: DayClock,
  series: readonly { deviceId: number; metric: string }[],
  step: Exclude<SeriesStep, 'raw'>,
  value: StepValue,
  across: 'sum' | 'avg',
  from: number,
  to: number,
): Promise<Point[]> {
  if (series.length === 0) return [];
  const devices = sql`${series.map((s) => s.deviceId)}::int[]`;
  const metrics = sql`${series.map((s) => s.metric)}::text[]`;
  // Each device's value in each step: the mean of its readings, or how much its counter grew.
  const perDevice = value === 'increase' ? sql`sum(r.increase)` : sql`sum(r.total) / nullif(sum(r.n), 0)`;
  const combine = across === 'sum' ? sql`sum(v)` : sql`avg(v)`;
  if (step === '1day') {
    const rows = await sql<{ day: string; v: number | null }>`
      SELECT day::text AS day, ${combine} AS v FROM (
        SELECT r.device_id, r.day, ${perDevice} AS v
        FROM telemetry_1d r JOIN unnest(${devices}, ${metrics}) AS s(device_id, metric)
          ON r.device_id = s.device_id AND r.metric = s.metric
        WHERE r.day >= ${days.dayOf(from)}::date AND r.day <= ${days.dayOf(to - 1)}::date
        GROUP BY r.device_id, r.day) per_device
      WHERE v IS NOT NULL
      GROUP BY day ORDER BY day`.execute(db);
    return rows.rows.flatMap((row) => (row.v === null ? [] : [[days.startOf(row.day), row.v] as Point]));
  }
  const slot = step === '1h' ? sql`date_trunc('hour', r.bucket)` : sql`r.bucket`;
  const rows = await sql<{ t: number; v: number | null }>`
    SELECT (extract(epoch from slot) * 1000)::float8 AS t, ${combine} AS v FROM (
      SELECT r.device_id, ${slot} AS slot, ${perDevice} AS v
      FROM telemetry_5m r JOIN unnest(${devices}, ${metrics}) AS s(device_id, metric)
        ON r.device_id = s.device_id AND r.metric = s.metric
      WHERE r.bucket >= ${new Date(Math.floor(from / FIVE_MINUTES_MS) * FIVE_MINUTES_MS).toISOString()}::timestamptz
        AND r.bucket < ${new Date(to).toISOString()}::timestamptz
      GROUP BY r.device_id, slot) per_device
    WHERE v IS NOT NULL
    GROUP BY slot ORDER BY slot`.execute(db);
  return rows.rows.flatMap((row) => (row.v === null ? [] : [[Math.round(row.t), row.v] as Point]));
}
