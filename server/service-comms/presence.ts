import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { RegisteredDevice } from './device-secrets.ts';

/** Seconds after which a process's presence rows are stale: three pings missed (at least 10 s). */
export const presenceStaleSeconds = (pingMs: number) => Math.max(10, (pingMs * 3) / 1000);

/** The condition "online now" for queries joining `device_presence`: its row is fresh. */
export const presenceFresh = (staleSeconds: number) =>
  sql<boolean>`device_presence.seen_at > now() - make_interval(secs => ${staleSeconds})`;

/**
 * Which server process holds which device's socket, in the database so that every process of a
 * deployment agrees. A holder refreshes its rows while it lives; rows not refreshed within
 * `staleSeconds` belong to a process that died and count as offline.
 */
export class Presence {
  constructor(
    private readonly db: Kysely<Database>,
    readonly holder: string,
    private readonly staleSeconds: number,
  ) {}

  private fresh() {
    return presenceFresh(this.staleSeconds);
  }

  /** This process holds the device's socket now (taking it over from any other). */
  async claim(device: RegisteredDevice): Promise<void> {
    await this.db
      .insertInto('device_presence')
      .values({ serial: device.serial, device_id: device.id, model_id: device.modelId, holder: this.holder })
      .onConflict((oc) =>
        oc.column('serial').doUpdateSet({
          device_id: device.id,
          model_id: device.modelId,
          holder: this.holder,
          connected_at: sql`now()`,
          seen_at: sql`now()`,
        }),
      )
      .execute();
  }

  /** The device's socket on this process closed; a newer claim by another process stays. */
  async release(serial: string): Promise<void> {
    await this.db
      .deleteFrom('device_presence')
      .where('serial', '=', serial)
      .where('holder', '=', this.holder)
      .execute();
  }

  /** The process holding the device now, if it is online. */
  async holderOf(serial: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('device_presence')
      .select('holder')
      .where('serial', '=', serial)
      .where(this.fresh())
      .executeTakeFirst();
    return row?.holder;
  }

  /** This process is alive: refresh its rows, and drop the rows of processes that died. */
  async heartbeat(): Promise<void> {
    await this.db
      .updateTable('device_presence')
      .set({ seen_at: sql`now()` })
      .where('holder', '=', this.holder)
      .execute();
    await this.db
      .deleteFrom('device_presence')
      .where(sql<boolean>`seen_at < now() - make_interval(secs => ${this.staleSeconds * 2})`)
      .execute();
  }

  /** Forget every row of this process (shutting down), or every row of all (`everyone`: PGlite starts). */
  async clear(everyone = false): Promise<void> {
    let query = this.db.deleteFrom('device_presence');
    if (!everyone) query = query.where('holder', '=', this.holder);
    await query.execute();
  }

  /** The condition "online now" for queries joining `device_presence`. */
  onlineCondition() {
    return this.fresh();
  }
}
