import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { FOLD_AFTER_MS, FOLD_BARRIER } from './rollup-fold.ts';
import { upsertFiveMinutes, type WideStep, WideSteps } from './rollup-steps.ts';
import { FIVE_MINUTES_MS } from './time-buckets.ts';

/** How often the ingest merges the steps it holds back by default (`TELEMETRY_STEP_MERGE_S`). */
export const STEP_FLUSH_MS = 10_000;

/**
 * A process's 5-minute steps held back between batches, merged into `telemetry_5m` every few
 * seconds ({@link flush}) rather than by every batch: a device sending a reading a second then
 * costs one merge of its step per flush, not one per reading (the merge was most of the database's
 * time per reading; docs/api.md).
 *
 * - The first batch of a step in this process merges it at once, in the batch's transaction, so
 *   the step's row exists with its first readings; later readings of that step wait here.
 * - A late step (ended {@link FOLD_AFTER_MS} or more before the batch began) is always merged at
 *   once, as before: the fold may have added it to its hour and day already. So is a step that
 *   corrects a stored reading's growth (a counter's reading came in before it): the step's count
 *   of readings would not show such a correction lost.
 * - Held readings are stored (their raw rows are committed) and acknowledged; only the step's
 *   figures wait. A process that stops without warning loses what it held, and the fold puts it
 *   back: it counts each step's raw rows against the step's `readings` and works a step that
 *   differs out again from them (rollup-fold.ts).
 * - A flush leaves a folded step as it is: the fold counted the held readings from the raw rows.
 *   That holds because the fold first waits for every batch in flight ({@link batchClock} and
 *   `settledBatches`), and folds only steps that ended {@link FOLD_AFTER_MS} before that moment,
 *   which no batch begun later holds back.
 */
export class StepBuffer {
  /**
   * @param clock The clock a batch's start is read from instead of the database's
   *   ({@link batchClock}), for a test that folds steps at times of its choosing; it then runs
   *   batches and folds one after the other itself, and no barrier is taken.
   */
  constructor(readonly clock?: () => number) {}

  private pending = new WideSteps();
  /** Per device, the step this process last merged at once: later readings of it may wait. */
  private readonly merged = new Map<number, { bucket: number; metrics: readonly string[] }>();

  /** How many steps wait to be merged. */
  get size(): number {
    return this.pending.map.size;
  }

  /**
   * A batch's steps split into those to merge now and those to hold back, for a batch that began
   * at `now` (epoch ms, the database's clock: {@link batchClock}).
   */
  split(steps: WideSteps, now: number): { merge: WideSteps; hold: WideStep[] } {
    const merge = new WideSteps();
    const hold: WideStep[] = [];
    for (const wide of steps.map.values()) {
      const late = wide.bucket + FIVE_MINUTES_MS <= now - FOLD_AFTER_MS;
      const known = this.merged.get(wide.deviceId);
      if (!late && !wide.corrects && known?.bucket === wide.bucket && known.metrics === wide.metrics)
        hold.push(wide);
      else merge.merge(wide);
    }
    return { merge, hold };
  }

  /** After the batch committed: what it held back waits here, and what it merged is known. */
  committed(merged: WideSteps, held: readonly WideStep[]): void {
    for (const wide of merged.map.values()) {
      const known = this.merged.get(wide.deviceId);
      if (!known || wide.bucket >= known.bucket)
        this.merged.set(wide.deviceId, { bucket: wide.bucket, metrics: wide.metrics });
    }
    for (const wide of held) this.pending.merge(wide);
  }

  /**
   * Merge what waits, in one transaction. On failure it waits again, with whatever comes
   * meanwhile. (A commit whose answer was lost may merge twice: the step's count of readings then
   * exceeds its raw rows, and the fold works it out again.) Answers how many steps were merged.
   */
  async flush(db: Kysely<Database>): Promise<number> {
    if (this.pending.map.size === 0) return 0;
    const steps = this.pending;
    this.pending = new WideSteps();
    try {
      await db.transaction().execute((trx) => upsertFiveMinutes(trx, steps, { unlessFolded: true }));
    } catch (error) {
      for (const wide of steps.map.values()) this.pending.merge(wide);
      throw error;
    }
    return steps.map.size;
  }
}

/**
 * The moment a batch begins, on the database's clock (epoch ms), taken once the batch holds
 * {@link FOLD_BARRIER} shared: a fold waiting for the batches in flight waits for this one.
 */
export async function batchClock(trx: Transaction<Database>): Promise<number> {
  // MATERIALIZED: the lock is taken before the clock is read.
  const answer = await sql<{ now: number }>`
    WITH l AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared(${FOLD_BARRIER}))
    SELECT (extract(epoch from clock_timestamp()) * 1000)::float8 AS now FROM l`.execute(trx);
  return Number(answer.rows[0]?.now);
}
