import { type Kysely, sql } from 'kysely';
import type { WebhookEventType } from '../../contracts/webhooks.ts';
import type { Database } from '../db/schema.ts';

/**
 * Record that something happened on a site, for the webhooks that subscribe to it. Called inside
 * the transaction that makes it happen, so an event is stored if and only if the change is; the
 * sender fans it out to endpoints and delivers it after.
 */
export async function emitEvent(
  db: Kysely<Database>,
  type: WebhookEventType,
  siteId: number,
  data: Record<string, unknown>,
  at: Date = new Date(),
): Promise<void> {
  await db
    .insertInto('webhook_events')
    .values({ type, site_id: siteId, data: JSON.stringify(data), at })
    .execute();
}

/** As `emitEvent`, for a device known by its serial: the event is its site's (none: nothing). */
async function emitDeviceEvent(
  db: Kysely<Database>,
  type: WebhookEventType,
  serial: string,
  data: Record<string, unknown>,
): Promise<void> {
  await sql`
    INSERT INTO webhook_events (type, site_id, data)
    SELECT ${type}, site_id, ${JSON.stringify(data)}::jsonb FROM devices WHERE serial = ${serial}`.execute(
    db,
  );
}

/** `configuration.written`: settings written to a device (over Bluetooth or remotely) and read back. */
export function emitConfigurationWritten(
  db: Kysely<Database>,
  serial: string,
  write: { id: string; writtenAt: string; transport: string; template: string | null; changes: unknown },
): Promise<void> {
  return emitDeviceEvent(db, 'configuration.written', serial, { serial, ...write });
}
