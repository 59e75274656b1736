import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AlarmCounts, AlarmStateFilter, DeviceCounts, DeviceState } from '../../contracts/monitoring.ts';
import type { Database } from '../db/schema.ts';

/**
 * Every count of devices and alarms that a screen shows comes from here, so that two screens
 * showing the same count (Home's "Devices offline" and the list it links to, Home's open alarms
 * and the alarms list's total) show the same number: each count is one query, written once.
 */

/**
 * Each device the caller sees (`visible`, a condition on `sites`) with its state now, as the
 * relation `dev` that counts and lists of devices by state read: connected now (`online`), when
 * last heard from (`last_seen`, null: never), its open alarms and the most serious (`worst`, 3
 * critical … 1 info). Alarms count when `alarmsSeen` holds (a condition on `alarms a`: raised since
 * the caller sees the device, `alarmsSince` in monitoring-scope.ts).
 */
export function deviceStates(
  visible: RawBuilder<boolean>,
  online: RawBuilder<boolean>,
  alarmsSeen: RawBuilder<boolean>,
) {
  return sql`
    SELECT d.id, d.serial, d.name, d.model_id, sites.id AS site_id, sites.name AS site_name,
           device_presence.serial IS NOT NULL AS online, l.received_at AS last_seen,
           coalesce(alarm.open, 0) AS open_alarms, alarm.worst
    FROM devices d
    JOIN sites ON sites.id = d.site_id
    LEFT JOIN device_presence ON device_presence.device_id = d.id AND ${online}
    LEFT JOIN telemetry_latest l ON l.device_id = d.id
    LEFT JOIN (
      SELECT device_id, count(*)::int AS open,
             max(CASE severity WHEN 'critical' THEN 3 WHEN 'warning' THEN 2 ELSE 1 END) AS worst
      FROM alarms a WHERE a.state <> 'cleared' AND a.device_id IS NOT NULL AND ${alarmsSeen}
      GROUP BY device_id) alarm
      ON alarm.device_id = d.id
    WHERE ${visible}`;
}

/** What each state of a device means, on a row of {@link deviceStates}. */
export const DEVICE_STATE_CONDITIONS: Readonly<Record<DeviceState, RawBuilder<boolean>>> = {
  online: sql<boolean>`dev.online`,
  offline: sql<boolean>`NOT dev.online`,
  never: sql<boolean>`NOT dev.online AND dev.last_seen IS NULL`,
  alarm: sql<boolean>`dev.open_alarms > 0`,
};

/** The columns counting devices by state over rows of {@link deviceStates} (grouped or not). */
export const DEVICE_COUNT_COLUMNS = sql`count(*)::int AS total,
  (count(*) FILTER (WHERE ${DEVICE_STATE_CONDITIONS.online}))::int AS online,
  (count(*) FILTER (WHERE ${DEVICE_STATE_CONDITIONS.offline}))::int AS offline,
  (count(*) FILTER (WHERE ${DEVICE_STATE_CONDITIONS.never}))::int AS never_connected,
  (count(*) FILTER (WHERE ${DEVICE_STATE_CONDITIONS.alarm}))::int AS in_alarm`;

export interface DeviceCountRow {
  total: number;
  online: number;
  offline: number;
  never_connected: number;
  in_alarm: number;
}

export const toDeviceCounts = (row: DeviceCountRow | undefined): DeviceCounts => ({
  total: row?.total ?? 0,
  online: row?.online ?? 0,
  offline: row?.offline ?? 0,
  neverConnected: row?.never_connected ?? 0,
  inAlarm: row?.in_alarm ?? 0,
});

/** The caller's devices by state, at every site they see or at one. */
export async function deviceCounts(
  db: Kysely<Database>,
  visible: RawBuilder<boolean>,
  online: RawBuilder<boolean>,
  alarmsSeen: RawBuilder<boolean>,
  siteId?: number,
): Promise<DeviceCounts> {
  const rows = await sql<DeviceCountRow>`
    WITH dev AS (${deviceStates(visible, online, alarmsSeen)})
    SELECT ${DEVICE_COUNT_COLUMNS} FROM dev
    ${siteId === undefined ? sql`` : sql`WHERE dev.site_id = ${siteId}`}`.execute(db);
  return toDeviceCounts(rows.rows[0]);
}

/**
 * Alarms (`a`) with their device (`d`, none for a site's own alarm) and their site (`sites`: the
 * device's, or the site's own alarm's), for conditions on what the caller sees.
 */
export const ALARMS_WITH_SITES = sql`FROM alarms a
    LEFT JOIN devices d ON d.id = a.device_id
    JOIN sites ON sites.id = coalesce(d.site_id, a.site_id)`;

/** Which alarms a count or a list keeps (none given: every alarm the caller sees). */
export interface AlarmFilter {
  siteId?: number | undefined;
  severity?: string | undefined;
  serial?: string | undefined;
}

/** Conditions on {@link ALARMS_WITH_SITES} of what the caller sees, narrowed by a filter. */
export function alarmConditions(visible: RawBuilder<boolean>, filter: AlarmFilter): RawBuilder<boolean> {
  const conditions: RawBuilder<boolean>[] = [visible];
  if (filter.siteId !== undefined) conditions.push(sql`sites.id = ${filter.siteId}`);
  if (filter.severity) conditions.push(sql`a.severity = ${filter.severity}`);
  if (filter.serial) conditions.push(sql`d.serial = ${filter.serial}`);
  return sql<boolean>`${sql.join(conditions, sql` AND `)}`;
}

/** The caller's alarms by state, as a filter narrows them. */
export async function alarmCounts(
  db: Kysely<Database>,
  visible: RawBuilder<boolean>,
  filter: AlarmFilter = {},
): Promise<AlarmCounts> {
  const rows = await sql<{ state: string; n: number }>`
    SELECT a.state, count(*)::int AS n ${ALARMS_WITH_SITES}
    WHERE ${alarmConditions(visible, filter)}
    GROUP BY a.state`.execute(db);
  const count = (state: string) => rows.rows.find((row) => row.state === state)?.n ?? 0;
  const active = count('active');
  const acknowledged = count('acknowledged');
  return { active, acknowledged, open: active + acknowledged, cleared: count('cleared') };
}

/** How many alarms a list of alarms in `state` holds (none: every state), from {@link alarmCounts}. */
export function alarmsIn(counts: AlarmCounts, state: AlarmStateFilter | undefined): number {
  if (state === undefined) return counts.open + counts.cleared;
  return counts[state];
}
