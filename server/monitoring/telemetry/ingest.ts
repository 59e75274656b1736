import { type Kysely, sql } from 'kysely';
import type { TelemetryCount } from '../../../contracts/monitoring.ts';
import type { Database } from '../../db/schema.ts';
import type { LogSummary } from '../../logging/log-summary.ts';
import type { TelemetryReceipt } from '../../service-comms/ack-window.ts';
import { ensurePartitions, oldestAccepted } from './partitions.ts';
import type { ProductCatalogue } from './product-catalogue.ts';
import { type FrameSource, READING_FLAGS, type Reading, readFrame } from './read-frame.ts';
import { STEP_FLUSH_MS, StepBuffer } from './step-buffer.ts';
import { addCounts, type StoredBatch, storeBatch } from './store-batch.ts';
import { DAY_MS, utcDay } from './time-buckets.ts';

/** The NOTIFY channel that says a batch of readings was stored: `{"d": [device ids]}` (or null: any). */
export const READINGS_CHANNEL = 'telemetry_readings';
/** NOTIFY carries up to 8000 bytes: past this the ids are left out and listeners look at all they follow. */
const MAX_NOTIFY_TEXT = 7000;

/**
 * What became of a telemetry message: waiting for its batch (its receipt is settled when the
 * batch commits), refused for good (counted; settled at once), or turned away because too many
 * readings wait already (not stored, not settled: the device keeps it and sends it again).
 */
export type Intake = 'queued' | 'refused' | 'turned-away';

export interface IngestOptions {
  db: Kysely<Database>;
  catalogue: ProductCatalogue;
  rawDays: number;
  /** Tell the other processes through PostgreSQL NOTIFY (several processes); else only `stored`. */
  notify: boolean;
  /** Runs after each batch committed: alarms, the live stream of this process. */
  stored?: (batch: StoredBatch) => Promise<void>;
  log: LogSummary;
  /** A batch is written this long after its first reading came (default 100 ms), or at `maxBatch`. */
  flushMs?: number;
  maxBatch?: number;
  /** Readings waiting past this (the database is away) are turned away and counted as `dropped`. */
  maxBacklog?: number;
  /**
   * A 5-minute step's later readings are merged into it at most this long after they were stored
   * ({@link STEP_FLUSH_MS} by default), and once the step has ended ({@link StepBuffer}): what the
   * charts show of the step under way lags by as much.
   */
  stepFlushMs?: number;
  now?: () => number;
}

/**
 * Telemetry from device sockets into the database: each frame is checked and decoded at once
 * (refused ones are counted, never stored), then readings wait a moment and are written in
 * batches, one transaction each (storeBatch), one batch at a time per process. Once a batch has
 * committed, the receipts of its readings are settled, which acknowledges them to their devices.
 * A failed batch is tried again a second later with whatever came meanwhile; past `maxBacklog`
 * waiting readings new ones are turned away (counted as `dropped`; their devices keep them), so a
 * database outage cannot fill the memory.
 */
export class TelemetryIngest {
  private waiting: Reading[] = [];
  private counts = new Map<TelemetryCount, number>();
  private readonly partitionDays = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  /** The work after stored batches (alarms), one batch at a time. */
  private following: Promise<unknown> = Promise.resolve();
  private readonly now: () => number;
  /** 5-minute steps held back between batches, when they were last merged, and when next. */
  private readonly steps = new StepBuffer();
  private stepsFlushedAt: number;
  private stepTimer: { timer: NodeJS.Timeout; at: number } | undefined;

  constructor(private readonly options: IngestOptions) {
    this.now = options.now ?? Date.now;
    this.stepsFlushedAt = this.now();
  }

  /** Count something refused or marked, to be written with the next batch. */
  count(kind: TelemetryCount, by = 1): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + by);
    this.schedule();
  }

  /**
   * A telemetry frame from a device whose socket proved who it is. Checks it at once and queues
   * the reading, or refuses it (counted); never throws for anything the device sent. A refused
   * frame's receipt is settled here; a queued one's when its batch commits.
   */
  accept(
    source: FrameSource,
    frame: Uint8Array,
    receivedAt = this.now(),
    receipt?: TelemetryReceipt,
  ): Intake {
    if (this.waiting.length >= (this.options.maxBacklog ?? 50_000)) {
      this.refuse('dropped', source);
      return 'turned-away';
    }
    const outcome = readFrame(
      this.options.catalogue.codec,
      this.options.catalogue.product(source.modelId),
      source,
      frame,
      receivedAt,
      oldestAccepted(receivedAt, this.options.rawDays),
    );
    if (!outcome.ok) {
      this.refuse(outcome.refused, source);
      receipt?.settle();
      receipt?.flush();
      return 'refused';
    }
    if (outcome.reading.flags & READING_FLAGS.clockAhead) this.count('clock_ahead');
    if (receipt) outcome.reading.receipt = receipt;
    this.waiting.push(outcome.reading);
    this.schedule();
    return 'queued';
  }

  /** Count a message refused before its frame was read (its shape, its pace), and log it summarised. */
  refused(kind: TelemetryCount, source?: { serial: string }): void {
    this.refuse(kind, source);
  }

  private refuse(kind: TelemetryCount, source?: { serial: string }): void {
    this.count(kind);
    this.options.log.note(
      `[telemetry] refused ${kind}`,
      `[telemetry] refused a message${source ? ` of ${source.serial}` : ''}: ${kind}`,
    );
  }

  private schedule(delay = this.options.flushMs ?? 100): void {
    if (this.timer || this.running || this.closed) return;
    const full = this.waiting.length >= (this.options.maxBatch ?? 2000);
    this.timer = setTimeout(() => this.run(), full ? 0 : delay);
    this.timer.unref();
  }

  /** When held steps are due to be merged (every `stepFlushMs`, or once one has ended), in ms from now. */
  private stepsDueIn(): number {
    const due = Math.min(
      this.stepsFlushedAt + (this.options.stepFlushMs ?? STEP_FLUSH_MS),
      this.steps.endsAt,
    );
    return Math.max(0, due - this.now());
  }

  private run(): void {
    this.timer = undefined;
    this.running = this.write().finally(() => {
      this.running = undefined;
      if (this.waiting.length > 0 || this.counts.size > 0) this.schedule();
      else if (this.steps.size > 0) this.scheduleSteps();
    });
  }

  /**
   * Merge the held steps when due if no batch comes first (a batch merges them after itself when
   * due). A timer of its own: readings that come meanwhile are written at their own pace.
   */
  private scheduleSteps(): void {
    if (this.closed) return;
    const inMs = this.stepsDueIn();
    const at = this.now() + inMs;
    // A step held since may end before the timer set: it is set again, earlier.
    if (this.stepTimer && this.stepTimer.at <= at) return;
    if (this.stepTimer) clearTimeout(this.stepTimer.timer);
    const timer = setTimeout(() => {
      this.stepTimer = undefined;
      if (this.running || this.timer) return;
      this.run();
    }, inMs);
    timer.unref();
    this.stepTimer = { timer, at };
  }

  /** Write what waits now: one batch of readings with the counts so far, then held steps when due. */
  private async write(): Promise<void> {
    if (this.waiting.length > 0 || this.counts.size > 0) await this.writeBatch();
    if (this.steps.size > 0 && this.stepsDueIn() === 0) await this.flushSteps();
  }

  /** Merge the held 5-minute steps; on failure they wait for the next time. */
  private async flushSteps(): Promise<void> {
    this.stepsFlushedAt = this.now();
    try {
      await this.steps.flush(this.options.db);
    } catch (error) {
      this.options.log.note(
        '[telemetry] failed step merges',
        `[telemetry] merging held 5-minute steps failed, trying again: ${(error as Error).message}`,
      );
    }
  }

  /** One batch of readings with the counts so far. */
  private async writeBatch(): Promise<void> {
    const batch = this.waiting.splice(0, this.options.maxBatch ?? 2000);
    const counts = this.counts;
    this.counts = new Map();
    const { db } = this.options;
    try {
      await this.partitionsFor(batch);
      const stored = await storeBatch(
        db,
        batch,
        (modelId) => this.options.catalogue.product(modelId)?.spec,
        async (trx, result) => {
          counts.set('stored', (counts.get('stored') ?? 0) + result.fresh.length);
          counts.set('duplicate', (counts.get('duplicate') ?? 0) + result.duplicates);
          await addCounts(trx, utcDay(this.now()), counts);
          if (this.options.notify && result.fresh.length > 0) await notifyStored(trx, result.fresh);
        },
        this.steps,
      );
      // Committed: every reading of the batch is stored (now, or before as a duplicate).
      for (const reading of batch) reading.receipt?.settle();
      for (const reading of batch) reading.receipt?.flush();
      // Alarms and this process's streams follow, in batch order, without holding up the next batch.
      if (stored.fresh.length > 0 && this.options.stored) {
        const after = this.options.stored;
        this.following = this.following
          .then(() => after(stored))
          .catch((error: unknown) => console.error('[telemetry] after a stored batch:', error));
      }
    } catch (error) {
      // Nothing of the batch was written: it goes back in front, the counts with it.
      this.waiting.unshift(...batch);
      for (const [kind, n] of counts) if (kind !== 'stored' && kind !== 'duplicate') this.count(kind, n);
      this.options.log.note(
        '[telemetry] failed batches',
        `[telemetry] a batch of ${batch.length} readings failed, trying again: ${(error as Error).message}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000).unref());
    }
  }

  /** Make sure the raw partitions of the batch's days exist (they are made ahead; this is the fallback). */
  private async partitionsFor(batch: readonly Reading[]): Promise<void> {
    const missing = [...new Set(batch.map((r) => Math.floor(r.deviceTime / DAY_MS)))].filter(
      (day) => !this.partitionDays.has(day),
    );
    if (missing.length === 0) return;
    await ensurePartitions(this.options.db, Math.min(...missing) * DAY_MS, Math.max(...missing) * DAY_MS);
    for (const day of missing) this.partitionDays.add(day);
  }

  /**
   * Write everything waiting, and what follows the batches (tests, shutdown). With `deadline`
   * (epoch ms) it gives up trying once that has passed (the database is away): what was not
   * stored was not acknowledged either, and its devices send it again.
   */
  async flush(deadline = Number.POSITIVE_INFINITY): Promise<void> {
    for (
      let round = 0;
      round < 100 && (this.running || this.waiting.length > 0 || this.counts.size > 0);
      round++
    ) {
      if (this.running) await this.running;
      if (this.now() > deadline) return;
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      if (this.waiting.length === 0 && this.counts.size === 0) break;
      this.run();
      await this.running;
    }
    if (this.steps.size > 0 && this.now() <= deadline) {
      if (this.running) await this.running;
      await this.flushSteps();
    }
    await this.following;
  }

  /** Write what waits and stop. */
  async close(deadline?: number): Promise<void> {
    await this.flush(deadline);
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.stepTimer) clearTimeout(this.stepTimer.timer);
  }
}

/** NOTIFY the stored devices' ids (delivered when the batch commits). */
async function notifyStored(db: Kysely<Database>, fresh: readonly Reading[]): Promise<void> {
  const ids = [...new Set(fresh.map((r) => r.deviceId))];
  let payload = JSON.stringify({ d: ids });
  if (payload.length > MAX_NOTIFY_TEXT) payload = JSON.stringify({ d: null });
  await sql`SELECT pg_notify(${READINGS_CHANNEL}, ${payload})`.execute(db);
}
