import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { addToHoursAndDays, DAYS_LOCK, STEP_DAY } from './rollup-steps.ts';
import { FIVE_MINUTES_MS } from './time-buckets.ts';

/** A 5-minute step is added to its day this long after it ends (readings in flight have landed). */
export const FOLD_AFTER_MS = 60_000;

interface FoldedRow {
  device_id: number;
  t: number;
  metrics: string[];
  n: number[];
  total: number[];
  min: (number | null)[];
  max: (number | null)[];
  last: (number | null)[];
  last_at: (Date | null)[];
  increase: (number | null)[];
  day: string;
}

/**
 * Add the 5-minute steps that ended before `cutoff` to their hours and days, once: each step is
 * marked `folded` in the same statement that reads it, so two processes folding at once never add
 * one step twice (the second finds it folded), and a reading merged into a step while it is folded
 * waits for the fold and then sees it folded (and goes to the hour and day itself, storeBatch).
 * Answers how many steps were added. A step's day is the date in its device's site's time zone.
 *
 * `restRatio` spreads a large fold out: after each chunk it rests that many times as long as the
 * chunk took, so the ingest keeps most of the database meanwhile (a whole fleet's steps folded in
 * one go held readings of 10,000 devices back by seconds). 0 folds everything at once.
 */
export async function foldRollups(db: Kysely<Database>, cutoff: number, restRatio = 0): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const folded = await foldSome(db, cutoff);
    total += folded;
    if (folded < FOLD_CHUNK) return total;
    // Room for the ingest between chunks.
    const rest = restRatio * (performance.now() - started);
    // Unref'd: a rest never keeps a closing process alive.
    await new Promise((resolve) => (rest > 0 ? setTimeout(resolve, rest).unref() : setImmediate(resolve)));
  }
}

/** Devices' steps folded in one transaction: a fold of a large fleet goes in chunks, not one burst. */
const FOLD_CHUNK = 250;

/**
 * How long the minute's fold rests after each chunk, as a multiple of the chunk's time: the fold
 * takes at most a third of the time it runs in (10,000 devices' steps: about half a minute).
 */
const FOLD_REST_RATIO = 2;

async function foldSome(db: Kysely<Database>, cutoff: number): Promise<number> {
  const before = new Date(
    Math.floor((cutoff - FOLD_AFTER_MS) / FIVE_MINUTES_MS) * FIVE_MINUTES_MS,
  ).toISOString();
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock_shared(${DAYS_LOCK})`.execute(trx);
    // A step being merged right now is left for the next chunk (SKIP LOCKED).
    const folded = await sql<FoldedRow>`
      UPDATE telemetry_5m f SET folded = true
      FROM (SELECT device_id, bucket, metrics FROM telemetry_5m
            WHERE NOT folded AND bucket < ${before}::timestamptz
            LIMIT ${FOLD_CHUNK} FOR UPDATE SKIP LOCKED) pick, devices d, sites s
      WHERE f.device_id = pick.device_id AND f.bucket = pick.bucket AND f.metrics = pick.metrics
        AND d.id = f.device_id AND s.id = d.site_id
      RETURNING f.device_id, (extract(epoch from f.bucket) * 1000)::float8 AS t, f.metrics, f.n, f.total,
                f.min, f.max, f.last, f.last_at, f.increase, ${STEP_DAY} AS day`.execute(trx);
    if (folded.rows.length === 0) return 0;
    await addToHoursAndDays(
      trx,
      folded.rows.map((row) => ({
        deviceId: row.device_id,
        bucket: Math.round(row.t),
        day: row.day,
        metrics: row.metrics,
        steps: row.metrics.map((_, i) => ({
          n: row.n[i] ?? 0,
          total: row.total[i] ?? 0,
          min: row.min[i] ?? null,
          max: row.max[i] ?? null,
          last: row.last[i] ?? null,
          lastAt: row.last_at[i] ? new Date(row.last_at[i] as Date).getTime() : null,
          increase: row.increase[i] ?? null,
        })),
      })),
    );
    return folded.rows.length;
  });
}

/**
 * Fold every minute, in every process (folding is safe from several at once), until stopped.
 * @example const stop = foldEveryMinute(db); … stop();
 */
export function foldEveryMinute(db: Kysely<Database>): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    foldRollups(db, Date.now(), FOLD_REST_RATIO)
      .catch((error: unknown) => console.error('[telemetry] folding 5-minute steps failed:', error))
      .finally(() => {
        running = false;
      });
  }, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
