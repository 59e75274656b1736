import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Alarm, AlarmsQuery } from '../../../contracts/monitoring.ts';
import type { Page } from '../../../contracts/page.ts';
import type { Database } from '../../db/schema.ts';
import { ALARMS_WITH_SITES, alarmConditions, alarmCounts, alarmsIn } from '../fleet-counts.ts';

interface AlarmRow {
  id: number;
  serial: string | null;
  device_name: string | null;
  model_id: string | null;
  site_id: number;
  site_name: string;
  site_time_zone: string;
  kind: Alarm['kind'];
  rule: string;
  severity: Alarm['severity'];
  message: string;
  value: number | null;
  state: Alarm['state'];
  raised_at: Date;
  acknowledged_at: Date | null;
  acknowledged_by: number | null;
  acknowledger: string | null;
  ack_note: string | null;
  cleared_at: Date | null;
}

interface TransitionRow {
  alarm_id: number;
  state: Alarm['state'];
  at: Date;
  user_id: number | null;
  name: string | null;
  note: string | null;
}

const iso = (date: Date | null) => (date === null ? null : new Date(date).toISOString());

/** Severities from the most serious, for ordering. */
export const SEVERITY_RANK = sql<number>`CASE a.severity WHEN 'critical' THEN 3 WHEN 'warning' THEN 2 ELSE 1 END`;

/**
 * Alarms the caller sees (`visible`: a condition on `alarms a` and `sites`, `visibleAlarms`),
 * filtered as the query says, newest raised first, a page at a time, with every transition of
 * each. The total is the count of {@link alarmCounts}, as Home counts them.
 */
export async function alarmPage(
  db: Kysely<Database>,
  visible: RawBuilder<boolean>,
  query: AlarmsQuery,
): Promise<Page<Alarm>> {
  const conditions: RawBuilder<boolean>[] = [alarmConditions(visible, query)];
  if (query.state === 'open') conditions.push(sql`a.state <> 'cleared'`);
  else if (query.state) conditions.push(sql`a.state = ${query.state}`);
  const [rows, counts] = await Promise.all([
    sql<AlarmRow>`
    SELECT a.id, d.serial, d.name AS device_name, d.model_id, sites.id AS site_id, sites.name AS site_name, sites.time_zone AS site_time_zone,
           a.kind, a.rule, a.severity, a.message, a.value, a.state, a.raised_at, a.acknowledged_at,
           a.acknowledged_by, u.display_name AS acknowledger, a.ack_note, a.cleared_at
    ${ALARMS_WITH_SITES}
    LEFT JOIN users u ON u.id = a.acknowledged_by
    WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY a.raised_at DESC, a.id DESC
    LIMIT ${query.pageSize} OFFSET ${query.page * query.pageSize}`.execute(db),
    alarmCounts(db, visible, query),
  ]);
  const items = await withTransitions(db, rows.rows);
  return { items, page: query.page, pageSize: query.pageSize, total: alarmsIn(counts, query.state) };
}

/** One alarm by id with its transitions; undefined when there is none or the caller may not see it. */
export async function alarmById(
  db: Kysely<Database>,
  visible: RawBuilder<boolean>,
  id: number,
): Promise<Alarm | undefined> {
  const rows = await sql<AlarmRow>`
    SELECT a.id, d.serial, d.name AS device_name, d.model_id, sites.id AS site_id, sites.name AS site_name, sites.time_zone AS site_time_zone,
           a.kind, a.rule, a.severity, a.message, a.value, a.state, a.raised_at, a.acknowledged_at,
           a.acknowledged_by, u.display_name AS acknowledger, a.ack_note, a.cleared_at
    ${ALARMS_WITH_SITES}
    LEFT JOIN users u ON u.id = a.acknowledged_by
    WHERE a.id = ${id} AND ${visible}`.execute(db);
  return (await withTransitions(db, rows.rows))[0];
}

async function withTransitions(db: Kysely<Database>, rows: AlarmRow[]): Promise<Alarm[]> {
  if (rows.length === 0) return [];
  const transitions = await sql<TransitionRow>`
    SELECT t.alarm_id, t.state, t.at, t.user_id, u.display_name AS name, t.note
    FROM alarm_transitions t LEFT JOIN users u ON u.id = t.user_id
    WHERE t.alarm_id = ANY(${rows.map((r) => r.id)}::int[])
    -- In the order the lifecycle enters them (processes' clocks may differ by a little).
    ORDER BY CASE t.state WHEN 'active' THEN 0 WHEN 'acknowledged' THEN 1 ELSE 2 END`.execute(db);
  return rows.map((row) => ({
    id: row.id,
    serial: row.serial,
    deviceName: row.device_name,
    modelId: row.model_id,
    siteId: row.site_id,
    siteName: row.site_name,
    siteTimeZone: row.site_time_zone,
    kind: row.kind,
    rule: row.rule,
    severity: row.severity,
    message: row.message,
    value: row.value,
    state: row.state,
    raisedAt: new Date(row.raised_at).toISOString(),
    acknowledgedAt: iso(row.acknowledged_at),
    acknowledgedBy:
      row.acknowledged_by === null ? null : { id: row.acknowledged_by, name: row.acknowledger ?? '' },
    note: row.ack_note,
    clearedAt: iso(row.cleared_at),
    transitions: transitions.rows
      .filter((t) => t.alarm_id === row.id)
      .map((t) => ({
        state: t.state,
        at: new Date(t.at).toISOString(),
        by: t.user_id === null ? null : { id: t.user_id, name: t.name ?? '' },
        note: t.note,
      })),
  }));
}
