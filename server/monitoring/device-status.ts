import { type RawBuilder, sql } from 'kysely';
import type {
  AlarmSeverity,
  DeviceCounts,
  DeviceState,
  DeviceStatus,
  DeviceStatusQuery,
} from '../../contracts/monitoring.ts';
import type { Page } from '../../contracts/page.ts';
import type { ServerContext } from '../context.ts';
import { DEVICE_STATE_CONDITIONS, deviceCounts, deviceStates } from './fleet-counts.ts';

/** Severity rank → name (the most serious open alarm of a device or site). */
export const SEVERITY_NAMES: Record<number, AlarmSeverity> = { 1: 'info', 2: 'warning', 3: 'critical' };

/** Which count of {@link DeviceCounts} a list of devices in each state has as its total. */
const STATE_COUNTS: Readonly<Record<DeviceState, keyof DeviceCounts>> = {
  online: 'online',
  offline: 'offline',
  never: 'neverConnected',
  alarm: 'inAlarm',
};

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
}

/**
 * The devices the caller sees (`visible`, a condition on `sites`), by site then device, with their
 * state: connected now (presence), when they last reported, their open alarms (those the caller
 * sees: `alarms`, a condition on `alarms a`) and the most serious. `state` keeps only the devices
 * in that state; the total is the count Home shows of them.
 */
export async function deviceStatusPage(
  ctx: ServerContext,
  visible: RawBuilder<boolean>,
  alarms: RawBuilder<boolean>,
  query: DeviceStatusQuery,
): Promise<Page<DeviceStatus>> {
  const online = ctx.comms.presence.onlineCondition();
  const conditions: RawBuilder<boolean>[] = [sql<boolean>`true`];
  if (query.siteId !== undefined) conditions.push(sql`dev.site_id = ${query.siteId}`);
  if (query.state) conditions.push(DEVICE_STATE_CONDITIONS[query.state]);
  const [rows, counts] = await Promise.all([
    sql<Row>`
      WITH dev AS (${deviceStates(visible, online, alarms)})
      SELECT dev.serial, dev.name, dev.model_id, dev.site_id, dev.site_name, dev.online, dev.last_seen,
             dev.open_alarms, dev.worst
      FROM dev WHERE ${sql.join(conditions, sql` AND `)}
      ORDER BY dev.site_id, dev.id
      LIMIT ${query.pageSize} OFFSET ${query.page * query.pageSize}`.execute(ctx.db),
    deviceCounts(ctx.db, visible, online, alarms, query.siteId),
  ]);
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
    total: counts[query.state ? STATE_COUNTS[query.state] : 'total'],
  };
}
