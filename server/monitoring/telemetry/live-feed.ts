import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { z } from 'zod';
import type { LiveReading } from '../../../contracts/monitoring.ts';
import type { Database } from '../../db/schema.ts';
import { READINGS_CHANNEL } from './ingest.ts';
import { READING_FLAGS } from './read-frame.ts';

/** How many readings of one device one look sends at most (a stream that fell far behind catches up in steps). */
const PER_LOOK = 100;

const payloadSchema = z.object({ d: z.array(z.number().int()).nullable() });

/** A reading row as the stream sends it. */
export interface StoredReadingRow {
  device_id: number;
  device_time: Date;
  received_at: Date;
  flags: number;
  vals: Record<string, number>;
}

/** The event a row becomes. */
export function liveReading(serial: string, row: StoredReadingRow): LiveReading {
  return {
    serial,
    receivedAt: new Date(row.received_at).toISOString(),
    deviceTime: new Date(row.device_time).toISOString(),
    clockAhead: (row.flags & READING_FLAGS.clockAhead) !== 0,
    values: row.vals,
  };
}

interface Subscriber {
  serial: string;
  /** Device time (epoch ms) of the newest reading this subscriber was sent. */
  since: number;
  send: (reading: LiveReading, deviceTimeMs: number) => void;
  /** Ends the stream (the process is shutting down). */
  end: () => void;
}

/**
 * Live readings for this process's streams. Whichever process stored a batch says so once per
 * batch (PostgreSQL NOTIFY on `telemetry_readings` with the device ids; on PGlite, one process,
 * the ingest calls {@link published} itself); each process then reads, once for all its streams,
 * the readings newer than what each stream was sent, and hands them out. A reading that arrives
 * late (older than one already sent) is stored but not streamed.
 */
export class LiveFeed {
  private readonly subscribers = new Map<number, Set<Subscriber>>();
  private pending: Set<number> | 'all' | undefined;
  private looking: Promise<void> | undefined;
  private listener: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly databaseUrl?: string,
  ) {}

  /** With PostgreSQL, listen for batches stored by any process; reconnects after a lost connection. */
  async start(): Promise<void> {
    if (!this.databaseUrl || this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (note) => this.onNotification(note.payload));
    client.on('error', (error) => {
      console.error('[live] listener connection lost:', error.message);
      this.restartSoon();
    });
    await client.connect();
    await client.query(`LISTEN ${READINGS_CHANNEL}`);
    this.listener = client;
    // Readings stored while no one listened: every stream looks once.
    this.published(null);
  }

  private restartSoon(): void {
    if (this.stopped || this.retry) return;
    this.listener?.end().catch(() => {});
    this.listener = undefined;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start().catch((error: unknown) => {
        console.error('[live] listener reconnect failed:', (error as Error).message);
        this.restartSoon();
      });
    }, 1000);
    this.retry.unref();
  }

  private onNotification(payload: string | undefined): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload ?? '');
    } catch {
      parsed = undefined;
    }
    const message = payloadSchema.safeParse(parsed);
    this.published(message.success ? message.data.d : null);
  }

  /** Readings of these devices (null: of any device) were stored: the streams that follow them look. */
  published(deviceIds: readonly number[] | null): void {
    const followed =
      deviceIds === null ? [...this.subscribers.keys()] : deviceIds.filter((id) => this.subscribers.has(id));
    if (followed.length === 0) return;
    if (deviceIds === null) this.pending = 'all';
    else if (this.pending !== 'all') {
      this.pending ??= new Set();
      for (const id of followed) this.pending.add(id);
    }
    this.looking ??= this.lookLoop().finally(() => {
      this.looking = undefined;
    });
  }

  /** One look at a time; what was published meanwhile is looked at next. */
  private async lookLoop(): Promise<void> {
    while (this.pending !== undefined && !this.stopped) {
      const ids = this.pending === 'all' ? [...this.subscribers.keys()] : [...this.pending];
      this.pending = undefined;
      try {
        await this.look(ids);
      } catch (error) {
        console.error('[live] reading new readings failed:', (error as Error).message);
      }
    }
  }

  private async look(deviceIds: number[]): Promise<void> {
    const wanted = deviceIds.flatMap((id) => {
      const subs = this.subscribers.get(id);
      if (!subs || subs.size === 0) return [];
      return [{ id, since: Math.min(...[...subs].map((s) => s.since)) }];
    });
    if (wanted.length === 0) return;
    const rows = await sql<StoredReadingRow>`
      SELECT s.device_id, r.device_time, r.received_at, r.flags, r.vals
      FROM unnest(${wanted.map((w) => w.id)}::int[], ${wanted.map((w) => new Date(w.since).toISOString())}::timestamptz[])
        AS s(device_id, since)
      CROSS JOIN LATERAL (
        SELECT device_time, received_at, flags, vals FROM telemetry_raw
        WHERE device_id = s.device_id AND device_time > s.since
        ORDER BY device_time LIMIT ${PER_LOOK}) r
      ORDER BY s.device_id, r.device_time`.execute(this.db);
    for (const row of rows.rows) {
      const at = new Date(row.device_time).getTime();
      for (const subscriber of this.subscribers.get(row.device_id) ?? []) {
        if (at <= subscriber.since) continue;
        subscriber.since = at;
        subscriber.send(liveReading(subscriber.serial, row), at);
      }
    }
    // A device with a full look may have more: look again.
    const counts = new Map<number, number>();
    for (const row of rows.rows) counts.set(row.device_id, (counts.get(row.device_id) ?? 0) + 1);
    const more = [...counts].filter(([, n]) => n >= PER_LOOK).map(([id]) => id);
    if (more.length > 0) this.published(more);
  }

  /**
   * Follow a device: `send` gets each stored reading newer than `since` (device time, epoch ms);
   * `end` is called when the process shuts down. Answers the function that stops following.
   */
  subscribe(
    device: { id: number; serial: string },
    since: number,
    send: (reading: LiveReading, deviceTimeMs: number) => void,
    end: () => void = () => {},
  ): () => void {
    const subscriber: Subscriber = { serial: device.serial, since, send, end };
    let set = this.subscribers.get(device.id);
    if (!set) {
      set = new Set();
      this.subscribers.set(device.id, set);
    }
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(device.id) === set) this.subscribers.delete(device.id);
    };
  }

  /** How many streams follow devices on this process (tests, diagnostics). */
  get streams(): number {
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }

  /** End every stream of this process (shutting down: their clients reconnect elsewhere). */
  endStreams(): void {
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber.end();
  }

  async close(): Promise<void> {
    this.endStreams();
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.listener?.end().catch(() => {});
    this.listener = undefined;
    await this.looking;
  }
}
