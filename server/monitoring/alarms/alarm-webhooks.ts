import { type Kysely, sql } from 'kysely';
import type { WebhookEventType } from '../../../contracts/webhooks.ts';
import type { Database } from '../../db/schema.ts';
import { emitEvent } from '../../webhooks/events.ts';
import type { AlarmNews } from './alarm-mail.ts';
import { DEVICE_SILENCE_RULES } from './alarm-rules.ts';

const ALARM_EVENTS = {
  active: 'alarm.raised',
  acknowledged: 'alarm.acknowledged',
  cleared: 'alarm.cleared',
} as const satisfies Record<AlarmNews['state'], WebhookEventType>;

interface AlarmRow {
  id: number;
  site_id: number;
  serial: string | null;
  rule: string;
  kind: string;
  severity: string;
  message: string;
  raised_at: Date;
}

/**
 * The webhook events of alarm transitions, in the transaction that stored them: each transition
 * is `alarm.raised`, `alarm.acknowledged` or `alarm.cleared`; a device's silence alarm raised is
 * also `device.offline`, and cleared (it was heard again) `device.online`.
 */
export async function emitAlarmEvents(trx: Kysely<Database>, news: readonly AlarmNews[]): Promise<void> {
  if (news.length === 0) return;
  const rows = await sql<AlarmRow>`
    SELECT a.id, coalesce(d.site_id, a.site_id) AS site_id, d.serial, a.rule, a.kind, a.severity, a.message, a.raised_at
    FROM alarms a LEFT JOIN devices d ON d.id = a.device_id
    WHERE a.id = ANY(${news.map((n) => n.alarmId)}::int[])`.execute(trx);
  const byId = new Map(rows.rows.map((row) => [row.id, row]));
  for (const item of news) {
    const row = byId.get(item.alarmId);
    if (!row || row.site_id === null) continue;
    const at = new Date(item.at);
    const alarm = {
      alarmId: row.id,
      siteId: row.site_id,
      serial: row.serial,
      rule: row.rule,
      kind: row.kind,
      severity: row.severity,
      message: row.message,
      raisedAt: new Date(row.raised_at).toISOString(),
      ...(item.state === 'acknowledged' && { acknowledgedBy: item.by?.name ?? null }),
      ...(item.state === 'cleared' && { clearedAt: at.toISOString() }),
    };
    await emitEvent(trx, ALARM_EVENTS[item.state], row.site_id, alarm, at);
    if (row.serial !== null && DEVICE_SILENCE_RULES.includes(row.rule) && item.state !== 'acknowledged')
      await emitEvent(
        trx,
        item.state === 'active' ? 'device.offline' : 'device.online',
        row.site_id,
        { serial: row.serial, siteId: row.site_id, since: at.toISOString() },
        at,
      );
  }
}
