import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { LiveReading } from '../../../contracts/monitoring.ts';
import { notePayload, PgListener } from '../../db/pg-listener.ts';
import type { Database } from '../../db/schema.ts';
import { READINGS_CHANNEL } from './ingest.ts';
import { READING_FLAGS } from './read-frame.ts';

/** How many readings of one device one look sends at most (a stream that fell far behind catches up in steps). */
const PER_LOOK = 100;

const payloadSchema = z.object({ d: z.array(z.number().int()).nullable() });

/** Where every process hears that someone's access may have changed (PostgreSQL NOTIFY). */
const ACCESS_CHANNEL = 'access_changes';

/**
 * What may have changed who sees what: users whose sessions ended (logout, a revoked sign-in, a
 * password or e-mail change, a role change), sites whose access changed, devices that moved or
 * left their site. Every live stream it concerns checks again, on every process.
 */
export interface AccessChange {
  users?: number[];
  sites?: number[];
  devices?: number[];
}

const accessChangeSchema = z.object({
  users: z.array(z.number().int()).optional(),
  sites: z.array(z.number().int()).optional(),
  devices: z.array(z.number().int()).optional(),
});

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

/** A stream that is not a device's, watched for changes of its user's sign-in. */
interface UserWatcher {
  userId: number;
  /** Checks the sign-in again and ends the stream when it no longer holds. */
  recheck: () => Promise<void>;
  end: () => void;
}

interface Subscriber {
  serial: string;
  /** Who follows, on which site: what an access change is matched against. */
  userId: number;
  siteId: number;
  /** Checks that the follower may still see the device, and ends the stream if not. */
  recheck: () => Promise<void>;
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
  private readonly watchers = new Set<UserWatcher>();
  private pending: Set<number> | 'all' | undefined;
  private looking: Promise<void> | undefined;
  private listener: PgListener | undefined;
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly databaseUrl?: string,
  ) {}

  /** With PostgreSQL, listen for batches stored by any process; reconnects after a lost connection. */
  async start(): Promise<void> {
    if (!this.databaseUrl || this.stopped) return;
    this.listener = new PgListener({
      url: this.databaseUrl,
      channels: [READINGS_CHANNEL, ACCESS_CHANNEL],
      label: 'live',
      onNote: (channel, payload) =>
        channel === ACCESS_CHANNEL
          ? this.accessChanged(notePayload(accessChangeSchema, payload) ?? null)
          : this.published(notePayload(payloadSchema, payload)?.d ?? null),
      // Readings stored, and access changed, while no one listened: every stream looks once.
      onListening: () => {
        this.published(null);
        this.accessChanged(null);
      },
    });
    await this.listener.start();
  }

  /**
   * Say that access may have changed (after the change is committed): with PostgreSQL through
   * NOTIFY, so that every process hears it (this one included); on PGlite, one process, here.
   * Never fails: a notice that cannot be sent is logged (the streams still end with their token).
   */
  async announce(change: AccessChange): Promise<void> {
    if (!this.databaseUrl) return this.accessChanged(change);
    await sql`SELECT pg_notify(${ACCESS_CHANNEL}, ${JSON.stringify(change)})`
      .execute(this.db)
      .catch((error: unknown) =>
        console.error('[live] announcing an access change failed:', (error as Error).message),
      );
  }

  /** Access may have changed (null: anything): every stream it concerns checks again. */
  accessChanged(change: AccessChange | null): void {
    const users = new Set(change?.users);
    const sites = new Set(change?.sites);
    const devices = new Set(change?.devices);
    const check = (stream: { recheck: () => Promise<void>; end: () => void }) =>
      stream.recheck().catch((error: unknown) => {
        // A stream whose check failed is ended: the client reconnects and is checked anew.
        console.error('[live] checking a stream again failed:', (error as Error).message);
        stream.end();
      });
    for (const [deviceId, set] of this.subscribers)
      for (const subscriber of set)
        if (
          change === null ||
          users.has(subscriber.userId) ||
          sites.has(subscriber.siteId) ||
          devices.has(deviceId)
        )
          void check(subscriber);
    for (const watcher of this.watchers)
      if (change === null || users.has(watcher.userId)) void check(watcher);
  }

  /**
   * Another stream of a user (the fleet's, whose sites are read at each change) that checks again
   * when an access change concerns that user: a sign-out, a revoked or ended sign-in. Answers the
   * function that stops watching.
   */
  watchUser(watcher: UserWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
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
   * Follow a device for a user: `send` gets each stored reading newer than `since` (device time,
   * epoch ms); `recheck` runs whenever an access change concerns the user, the device's site or
   * the device; `end` is called when the process shuts down. Answers the function that stops
   * following.
   */
  subscribe(
    device: { id: number; serial: string; siteId: number },
    follower: { userId: number; recheck: () => Promise<void> },
    since: number,
    send: (reading: LiveReading, deviceTimeMs: number) => void,
    end: () => void = () => {},
  ): () => void {
    const subscriber: Subscriber = {
      serial: device.serial,
      userId: follower.userId,
      siteId: device.siteId,
      recheck: follower.recheck,
      since,
      send,
      end,
    };
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
    await this.listener?.close();
    await this.looking;
  }
}
