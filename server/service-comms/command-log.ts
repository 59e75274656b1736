import { type Kysely, sql } from 'kysely';
import type { CommandLogEntry } from '../../contracts/service-comms.ts';
import type { Principal } from '../auth/access-tokens.ts';
import type { Database } from '../db/schema.ts';
import type { Delivery } from './delivery.ts';

/** How many exchanges a device's log keeps; older ones are dropped as new ones arrive. */
export const COMMAND_LOG_KEEP = 500;

/** Record one exchange with a device, and drop what falls past the kept length. */
export async function logExchange(
  db: Kysely<Database>,
  entry: {
    device: { id: number; serial: string };
    sender: Principal;
    command: number[];
    delivery: Delivery;
    sentAt: Date;
  },
): Promise<void> {
  const { device, sender, command, delivery, sentAt } = entry;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('device_command_log')
      .values({
        device_id: device.id,
        serial: device.serial,
        user_id: sender.id,
        user_email: sender.email,
        command,
        answer: delivery.ok ? delivery.data : null,
        outcome: delivery.ok ? 'answered' : delivery.code,
        sent_at: sentAt,
        answered_at: delivery.ok ? new Date() : null,
      })
      .execute();
    await trx
      .deleteFrom('device_command_log')
      .where('device_id', '=', device.id)
      .where(
        'id',
        '<=',
        sql<number>`(SELECT id FROM device_command_log WHERE device_id = ${device.id} ORDER BY id DESC OFFSET ${COMMAND_LOG_KEEP} LIMIT 1)`,
      )
      .execute();
  });
}

/** A device's log, newest first. */
export async function readCommandLog(
  db: Kysely<Database>,
  deviceId: number,
  limit: number,
): Promise<CommandLogEntry[]> {
  const rows = await db
    .selectFrom('device_command_log')
    .selectAll()
    .where('device_id', '=', deviceId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    serialNumber: row.serial,
    userId: row.user_id,
    userEmail: row.user_email,
    command: row.command,
    answer: row.answer,
    outcome: row.outcome,
    sentAt: new Date(row.sent_at).toISOString(),
    answeredAt: row.answered_at ? new Date(row.answered_at).toISOString() : null,
  }));
}
