import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { upsertFiveMinutes, type WideStep, WideSteps } from './rollup-steps.ts';
import { FIVE_MINUTES_MS } from './time-buckets.ts';

/**
 * How often the ingest merges the steps it holds back by default (`TELEMETRY_STEP_MERGE_S`), and
 * at the latest once a held step has ended.
 */
export const STEP_FLUSH_MS = 60_000;

/**
 * A process's 5-minute steps held back between batches, merged into `telemetry_5m` now and then
 * ({@link flush}: every minute, and once a held step has ended) rather than by every batch: a
 * device sending a reading every 10 s then costs a merge of its step about every six readings,
 * not one per reading (the merge was most of the database's time per reading; docs/api.md).
 *
 * - The first batch of a step in this process merges it at once, in the batch's transaction, so
 *   the step's row exists with its first readings; later readings of that step wait here.
 * - A step that has ended when the batch begins is merged at once (as before: the fold may even
 *   have added it to its hour and day already). So is a step that corrects a stored reading's
 *   growth (a counter's reading came in before it): the step's count of readings would not show
 *   such a correction lost.
 * - Held readings are stored (their raw rows are committed) and acknowledged; only the step's
 *   figures wait. A process that stops without warning loses what it held, and the fold puts it
 *   back: it counts each step's raw rows against the step's `readings` and works a step that
 *   differs out again from them (rollup-fold.ts).
 * - A flush leaves a folded step as it is: the fold counted the held readings from the raw rows.
 *   That holds because the fold first waits for every batch in flight (`barrierClock` in
 *   rollup-fold.ts), and folds only steps that ended `FOLD_AFTER_MS` before that moment,
 *   which no batch begun later holds back (it holds only steps under way when it begins).
 */
export class StepBuffer {
  /**
   * @param clock The clock a batch's start is read from instead of the database's
   *   (`barrierClock` in rollup-fold.ts), for a test that folds steps at times of its choosing; it then runs
   *   batches and folds one after the other itself, and no barrier is taken.
   */
  constructor(readonly clock?: () => number) {}

  private pending = new WideSteps();
  /** When the first of the held steps ends (epoch ms; infinite when none is held). */
  private firstEnd = Number.POSITIVE_INFINITY;
  /** Per device, the step this process last merged at once: later readings of it may wait. */
  private readonly merged = new Map<number, { bucket: number; metrics: readonly string[] }>();

  /** How many steps wait to be merged. */
  get size(): number {
    return this.pending.map.size;
  }

  /** When the first held step ends (epoch ms), by when they are to be merged at the latest. */
  get endsAt(): number {
    return this.firstEnd;
  }

  /**
   * A batch's steps split into those to merge now and those to hold back, for a batch that began
   * at `now` (epoch ms, the database's clock: `barrierClock`).
   */
  split(steps: WideSteps, now: number): { merge: WideSteps; hold: WideStep[] } {
    const merge = new WideSteps();
    const hold: WideStep[] = [];
    for (const wide of steps.map.values()) {
      const ended = wide.bucket + FIVE_MINUTES_MS <= now;
      const known = this.merged.get(wide.deviceId);
      if (!ended && !wide.corrects && known?.bucket === wide.bucket && known.metrics === wide.metrics)
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
    for (const wide of held) this.hold(wide);
  }

  private hold(wide: WideStep): void {
    this.pending.merge(wide);
    this.firstEnd = Math.min(this.firstEnd, wide.bucket + FIVE_MINUTES_MS);
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
    this.firstEnd = Number.POSITIVE_INFINITY;
    try {
      await db.transaction().execute((trx) => upsertFiveMinutes(trx, steps, { unlessFolded: true }));
    } catch (error) {
      for (const wide of steps.map.values()) this.hold(wide);
      throw error;
    }
    return steps.map.size;
  }
}
