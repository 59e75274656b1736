import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { addToStep, counterGrowth, emptyStep } from './rollup-math.ts';
import { addToHoursAndDays, DAYS_LOCK, type DatedStep, STEP_DAY } from './rollup-steps.ts';
import { FIVE_MINUTES_MS } from './time-buckets.ts';

/** A 5-minute step is added to its day this long after it ends (readings in flight have landed). */
export const FOLD_AFTER_MS = 60_000;

/**
 * Each batch that holds steps back takes this advisory lock shared; a fold takes it alone, for a
 * moment, to wait for the batches in flight ({@link settledBatches}).
 */
export const FOLD_BARRIER = 7261003;

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
  readings: number | null;
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
                f.min, f.max, f.last, f.last_at, f.increase, f.readings, ${STEP_DAY} AS day`.execute(trx);
    if (folded.rows.length === 0) return 0;
    const steps: DatedStep[] = folded.rows.map((row) => ({
      deviceId: row.device_id,
      bucket: Math.round(row.t),
      day: row.day,
      metrics: row.metrics,
      readings: row.readings ?? 0,
      steps: row.metrics.map((_, i) => ({
        n: row.n[i] ?? 0,
        total: row.total[i] ?? 0,
        min: row.min[i] ?? null,
        max: row.max[i] ?? null,
        last: row.last[i] ?? null,
        lastAt: row.last_at[i] ? new Date(row.last_at[i] as Date).getTime() : null,
        increase: row.increase[i] ?? null,
      })),
    }));
    await repairSteps(
      trx,
      steps.filter((_, i) => folded.rows[i]?.readings !== null),
    );
    await addToHoursAndDays(trx, steps);
    return folded.rows.length;
  });
}

/**
 * Steps whose count of readings differs from their raw rows, worked out again from those rows, in
 * place and in `telemetry_5m`: readings a process held back and never merged (it stopped without
 * warning, StepBuffer), or merged twice (a flush's commit whose answer was lost). Run in the fold's
 * transaction after the steps are locked and marked folded: this statement's snapshot holds every
 * reading committed before it, and a reading of these steps committed later merges into them as a
 * late one. A step that shares its device and start with another (its product's metrics changed
 * within the five minutes) is left as it is: which readings were whose is not known.
 */
async function repairSteps(trx: Transaction<Database>, steps: DatedStep[]): Promise<number> {
  if (steps.length === 0) return 0;
  const counted = await sql<{ i: number; raw: number; rows: number }>`
    SELECT u.i::int AS i,
           (SELECT count(*) FROM telemetry_raw r
             WHERE r.device_id = u.d AND r.device_time >= to_timestamp(u.b / 1000)
               AND r.device_time < to_timestamp((u.b + ${FIVE_MINUTES_MS}) / 1000))::int AS raw,
           (SELECT count(*) FROM telemetry_5m f
             WHERE f.device_id = u.d AND f.bucket = to_timestamp(u.b / 1000))::int AS rows
    FROM unnest(${steps.map((s) => s.deviceId)}::int[], ${steps.map((s) => s.bucket)}::float8[])
      WITH ORDINALITY AS u(d, b, i)`.execute(trx);
  const wrong = counted.rows
    // No raw rows at all: they were dropped (kept for fewer days than the steps), not lost.
    .filter((row) => row.rows === 1 && row.raw > 0 && row.raw !== steps[row.i - 1]?.readings)
    .map((row) => steps[row.i - 1] as DatedStep);
  if (wrong.length === 0) return 0;
  const ids = wrong.map((s) => s.deviceId);
  const buckets = wrong.map((s) => s.bucket);
  const raw = await sql<{ i: number; t: number; vals: Record<string, number> }>`
    SELECT u.i::int AS i, (extract(epoch from r.device_time) * 1000)::float8 AS t, r.vals
    FROM unnest(${ids}::int[], ${buckets}::float8[]) WITH ORDINALITY AS u(d, b, i)
    JOIN telemetry_raw r ON r.device_id = u.d AND r.device_time >= to_timestamp(u.b / 1000)
                        AND r.device_time < to_timestamp((u.b + ${FIVE_MINUTES_MS}) / 1000)
    ORDER BY u.i, r.device_time`.execute(trx);
  // Each energy counter's reading just before the step: the first reading's growth is from it.
  const counters = wrong.flatMap((s, i) =>
    s.metrics.filter((_, m) => s.steps[m]?.increase !== null).map((metric) => ({ i: i + 1, metric })),
  );
  const previous = await sql<{ i: number; metric: string; v: number }>`
    SELECT u.i::int AS i, u.metric, (p.vals->>u.metric)::float8 AS v
    FROM unnest(${counters.map((c) => c.i)}::int[], ${counters.map((c) => c.metric)}::text[]) AS u(i, metric)
    JOIN unnest(${ids}::int[], ${buckets}::float8[]) WITH ORDINALITY AS s(d, b, i) ON s.i = u.i
    CROSS JOIN LATERAL (SELECT vals FROM telemetry_raw
      WHERE device_id = s.d AND device_time < to_timestamp(s.b / 1000) AND vals ? u.metric
      ORDER BY device_time DESC LIMIT 1) p`.execute(trx);
  const byStep = new Map<number, { t: number; vals: Record<string, number> }[]>();
  for (const row of raw.rows) {
    const list = byStep.get(row.i);
    if (list) list.push(row);
    else byStep.set(row.i, [row]);
  }
  const before = new Map(previous.rows.map((row) => [`${row.i}\u0000${row.metric}`, row.v]));
  wrong.forEach((step, s) => {
    const rows = byStep.get(s + 1) ?? [];
    step.readings = rows.length;
    step.steps = step.metrics.map((metric, m) => {
      const counter = step.steps[m]?.increase !== null;
      const figures = emptyStep(counter);
      let last = before.get(`${s + 1}\u0000${metric}`);
      for (const { t, vals } of rows) {
        const value = vals[metric];
        if (typeof value !== 'number') continue;
        addToStep(figures, value, Math.round(t));
        if (counter) {
          figures.increase = (figures.increase ?? 0) + counterGrowth(last, value);
          last = value;
        }
      }
      return figures;
    });
  });
  for (const step of wrong)
    await sql`
      UPDATE telemetry_5m SET readings = ${step.readings},
        n = ${step.steps.map((f) => f.n)}::int[], total = ${step.steps.map((f) => f.total)}::float8[],
        min = ${step.steps.map((f) => f.min)}::float8[], max = ${step.steps.map((f) => f.max)}::float8[],
        last = ${step.steps.map((f) => f.last)}::float8[],
        last_at = ${step.steps.map((f) => (f.lastAt === null ? null : new Date(f.lastAt).toISOString()))}::timestamptz[],
        increase = ${step.steps.map((f) => f.increase)}::float8[]
      WHERE device_id = ${step.deviceId} AND bucket = ${new Date(step.bucket).toISOString()}::timestamptz
        AND metrics = ${step.metrics}::text[]`.execute(trx);
  console.warn(
    `[telemetry] ${wrong.length} 5-minute step(s) worked out again from their raw rows (readings held back and lost, or merged twice)`,
  );
  return wrong.length;
}

/**
 * The database's clock (epoch ms), read once {@link FOLD_BARRIER} is held in `trx`'s transaction:
 * shared by a batch that may hold steps back (a fold waiting for the batches in flight waits for
 * it), alone by a fold ({@link settledBatches}).
 */
export async function barrierClock(trx: Transaction<Database>, mode: 'shared' | 'alone'): Promise<number> {
  const lock = mode === 'shared' ? sql`pg_advisory_xact_lock_shared` : sql`pg_advisory_xact_lock`;
  // MATERIALIZED: the lock is taken before the clock is read.
  const answer = await sql<{ now: number }>`
    WITH l AS MATERIALIZED (SELECT ${lock}(${FOLD_BARRIER}))
    SELECT (extract(epoch from clock_timestamp()) * 1000)::float8 AS now FROM l`.execute(trx);
  return Number(answer.rows[0]?.now);
}

/**
 * Wait for every batch in flight to commit (each holds {@link FOLD_BARRIER} shared while it
 * runs) and answer the database's clock then (epoch ms): the cutoff up to which a fold may count
 * held-back readings from the raw rows (StepBuffer). Batches begun after it hold back only steps
 * still under way when they began, which a fold up to it leaves alone.
 */
export async function settledBatches(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute((trx) => barrierClock(trx, 'alone'));
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
    settledBatches(db)
      .then((settled) => foldRollups(db, settled, FOLD_REST_RATIO))
      .catch((error: unknown) => console.error('[telemetry] folding 5-minute steps failed:', error))
      .finally(() => {
        running = false;
      });
  }, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
