import type { Kysely, RawBuilder } from 'kysely';
import { sql } from 'kysely';
import { z } from 'zod';
import { listenOnEmbedded } from '../db/database.ts';
import { notePayload, PgListener } from '../db/pg-listener.ts';
import type { Database } from '../db/schema.ts';

/** The channel the database's triggers NOTIFY (migration 18): `{"s": [site ids] | null}`. */
export const FLEET_CHANNEL = 'fleet_changes';

/** Changes that come close together are told together: at most one event this often per stream. */
const GATHER_MS = 250;

const payloadSchema = z.object({ s: z.array(z.number().int()).nullable() });

/** One stream: who it is for, and where its events go. */
export interface FleetSubscriber {
  /** Whose stream (a user id): streams of one person share what they see. */
  viewer: number;
  /** The condition "the caller sees this site" on `sites` (monitoring-scope.ts). */
  visible: RawBuilder<boolean>;
  /** The caller sees every site: no need to ask which. */
  seesEverything: boolean;
  /** Changed sites the caller sees (null: any or all of them). */
  send: (sites: number[] | null) => void;
  end: () => void;
}

/**
 * Which sites changed, for this process's fleet streams (`GET /monitoring/fleet/live`): the
 * database's triggers say so whichever process made the change (an alarm raised, acknowledged or
 * cleared, a device connected or gone, devices or sites added, moved or removed), this process
 * listens (PostgreSQL: its own connection, reconnecting; PGlite: the one connection), gathers what
 * comes within {@link GATHER_MS}, and tells each stream of the changed sites its caller sees.
 */
export class FleetFeed {
  private readonly subscribers = new Set<FleetSubscriber>();
  private changed: Set<number> | 'all' | undefined;
  private gathering: NodeJS.Timeout | undefined;
  private telling: Promise<void> = Promise.resolve();
  private listener: PgListener | undefined;
  private unlisten: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly databaseUrl?: string,
  ) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    if (!this.databaseUrl) {
      this.unlisten = await listenOnEmbedded(this.db, FLEET_CHANNEL, (payload) =>
        this.onNotification(payload),
      );
      return;
    }
    this.listener = new PgListener({
      url: this.databaseUrl,
      channels: [FLEET_CHANNEL],
      label: 'fleet',
      onNote: (_channel, payload) => this.onNotification(payload),
      // Changes made while no one listened: every stream looks again.
      onListening: () => this.onNotification(null),
    });
    await this.listener.start();
  }

  /** A notification (null: unknown or lost, treated as every site). */
  private onNotification(payload: string | null | undefined): void {
    if (this.subscribers.size === 0) return;
    const sites = notePayload(payloadSchema, payload)?.s ?? null;
    if (sites === null) this.changed = 'all';
    else if (this.changed !== 'all') {
      this.changed ??= new Set();
      for (const id of sites) this.changed.add(id);
    }
    this.gathering ??= setTimeout(() => {
      this.gathering = undefined;
      this.telling = this.telling
        .then(() => this.tell())
        .catch((error: unknown) => {
          console.error('[fleet] telling the streams failed:', (error as Error).message);
        });
    }, GATHER_MS);
  }

  /** Tell each stream which of the changed sites its caller sees. */
  private async tell(): Promise<void> {
    const changed = this.changed;
    this.changed = undefined;
    if (changed === undefined) return;
    const sites = changed === 'all' ? null : [...changed];
    // What each person sees of the changed sites, asked once per person.
    const seenBy = new Map<number, number[]>();
    for (const subscriber of [...this.subscribers]) {
      if (sites === null || subscriber.seesEverything) {
        subscriber.send(sites);
        continue;
      }
      let seen = seenBy.get(subscriber.viewer);
      if (!seen) {
        const rows = await sql<{ id: number }>`
          SELECT sites.id FROM sites WHERE sites.id = ANY(${sites}::int[]) AND ${subscriber.visible}
          ORDER BY sites.id`.execute(this.db);
        seen = rows.rows.map((row) => row.id);
        seenBy.set(subscriber.viewer, seen);
      }
      if (seen.length > 0 && this.subscribers.has(subscriber)) subscriber.send(seen);
    }
  }

  /** Follow the fleet as a caller sees it; answers the function that stops following. */
  subscribe(subscriber: FleetSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => {
      this.subscribers.delete(subscriber);
    };
  }

  /** How many fleet streams this process holds (tests, diagnostics). */
  get streams(): number {
    return this.subscribers.size;
  }

  /** End every stream of this process (shutting down: their clients reconnect elsewhere). */
  endStreams(): void {
    for (const subscriber of this.subscribers) subscriber.end();
  }

  async close(): Promise<void> {
    this.endStreams();
    this.stopped = true;
    if (this.gathering) clearTimeout(this.gathering);
    this.unlisten?.();
    await this.listener?.close();
    await this.telling;
  }
}
