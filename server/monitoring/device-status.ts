import { type RawBuilder, sql } from 'kysely';
import type { AlarmSeverity, DeviceStatus, DeviceStatusQuery } from '../../contracts/monitoring.ts';
import type { Page } from '../../contracts/page.ts';
import type { ServerContext } from '../context.ts';

/** Severity rank → name (the most serious open alarm of a device or site). */
export const SEVERITY_NAMES: Record<number, AlarmSeverity> = { 1: 'info', 2: 'warning', 3: 'critical' };

interface Row {
  serial: string;
  name: string;
  model_id: string;
  site_id: number;
  site_name: string;
  online: boolean;
  last_seen: Date | null;
  open_alarms: number;
  worst: number | null;
  total: number;
}

/**
 * The devices the caller sees (`visible`, a condition on `sites`), by site then device, with their
 * state: connected now (presence), when they last reported, their open alarms (those the caller
 * sees: `alarms`, a condition on `alarms a`) and the most serious.
 * `state` keeps only the online, the offline (not connected), or those with an open alarm.
 */
export async function deviceStatusPage(
  ctx: ServerContext,
  visible: RawBuilder<boolean>,
  alarms: RawBuilder<boolean>,
  query: DeviceStatusQuery,
): Promise<Page<DeviceStatus>> {
  const online = ctx.comms.presence.onlineCondition();
  const conditions: RawBuilder<boolean>[] = [visible];
  if (query.siteId !== undefined) conditions.push(sql`sites.id = ${query.siteId}`);
  if (query.state === 'online') conditions.push(sql`device_presence.serial IS NOT NULL`);
  if (query.state === 'offline') conditions.push(sql`device_presence.serial IS NULL`);
  if (query.state === 'alarm') conditions.push(sql`alarm.open > 0`);
  const rows = await sql<Row>`
    SELECT d.serial, d.name, d.model_id, sites.id AS site_id, sites.name AS site_name,
           device_presence.serial IS NOT NULL AS online, l.received_at AS last_seen,
           alarm.open AS open_alarms, alarm.worst, count(*) OVER () AS total
    FROM devices d
    JOIN sites ON sites.id = d.site_id
    LEFT JOIN device_presence ON device_presence.device_id = d.id AND ${online}
    LEFT JOIN telemetry_latest l ON l.device_id = d.id
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS open,
             max(CASE a.severity WHEN 'critical' THEN 3 WHEN 'warning' THEN 2 ELSE 1 END) AS worst
      FROM alarms a WHERE a.device_id = d.id AND a.state <> 'cleared' AND ${alarms}) alarm
    WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY sites.id, d.id
    LIMIT ${query.pageSize} OFFSET ${query.page * query.pageSize}`.execute(ctx.db);
  return {
    items: rows.rows.map((row) => ({
      serial: row.serial,
      name: row.name,
      modelId: row.model_id,
      siteId: row.site_id,
      siteName: row.site_name,
      online: row.online,
      lastSeen: row.last_seen ? new Date(row.last_seen).toISOString() : null,
      openAlarms: row.open_alarms,
      worstSeverity: row.worst === null ? null : (SEVERITY_NAMES[row.worst] ?? null),
    })),
    page: query.page,
    pageSize: query.pageSize,
    total: rows.rows[0]?.total ?? 0,
  };
}
