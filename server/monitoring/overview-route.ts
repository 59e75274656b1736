import { Hono } from 'hono';
import { sql } from 'kysely';
import {
  OVERVIEW_ALARMS,
  OVERVIEW_SITES,
  type Overview,
  type OverviewSite,
  overviewSchema,
} from '../../contracts/monitoring.ts';
import type { ServerContext } from '../context.ts';
import type { AuthVariables } from '../http/guards.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { ALARMS_WITH_SITES, alarmPage } from './alarms/alarm-queries.ts';
import { SEVERITY_NAMES } from './device-status.ts';
import { visibleSites } from './monitoring-scope.ts';
import { unfoldedFrom } from './series.ts';

interface SiteRow {
  id: number;
  name: string;
  devices: number;
  online: number;
  in_alarm: number;
  open_alarms: number;
  worst: number | null;
  energy: number;
}

/** Energy to the watt-hour: sums of counter steps carry binary fractions (12.4000000001). */
const kwh = (value: number) => Math.round(value * 1000) / 1000;

/** Problems first: the most serious open alarm, then how many alarms, then devices offline; then by name. */
function byProblems(a: SiteRow, b: SiteRow): number {
  return (
    (b.worst ?? 0) - (a.worst ?? 0) ||
    b.open_alarms - a.open_alarms ||
    b.devices - b.online - (a.devices - a.online) ||
    a.name.localeCompare(b.name) ||
    a.id - b.id
  );
}

/** `GET /overview`: the caller's fleet now, for Home. */
export function overviewRoute(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();

  app.get(
    '/overview',
    describeRoute({
      summary:
        "The caller's fleet now: devices online, offline and in alarm, today's produced energy, the newest open alarms, sites with problems first",
      tag: 'monitoring',
      responses: { 200: { description: 'The overview', schema: overviewSchema } },
    }),
    async (c) => {
      const visible = visibleSites(ctx, c.get('principal'));
      const { catalogue, days } = ctx.monitoring;
      const today = days.dayOf(Date.now());
      // Which item of each model is its produced-energy counter (the catalogue's roles).
      const energyItems = [...catalogue.all().values()].flatMap((product) => {
        const metric = product.spec?.roles.producedEnergy;
        return metric ? [{ modelId: product.modelId, metric }] : [];
      });
      const online = ctx.comms.presence.onlineCondition();
      const sites = await sql<SiteRow>`
        WITH dev AS (
          SELECT d.id, d.model_id, sites.id AS site_id, sites.name AS site_name,
                 device_presence.serial IS NOT NULL AS online, coalesce(al.open, 0) AS open, al.worst
          FROM devices d
          JOIN sites ON sites.id = d.site_id
          LEFT JOIN device_presence ON device_presence.device_id = d.id AND ${online}
          LEFT JOIN (
            SELECT device_id, count(*)::int AS open,
                   max(CASE severity WHEN 'critical' THEN 3 WHEN 'warning' THEN 2 ELSE 1 END) AS worst
            FROM alarms WHERE state <> 'cleared' GROUP BY device_id) al ON al.device_id = d.id
          WHERE ${visible}
        ), items AS (
          SELECT * FROM unnest(${energyItems.map((e) => e.modelId)}::text[], ${energyItems.map((e) => e.metric)}::text[])
            AS m(model_id, metric)
        ), energy AS (
          -- Today: its folded steps, and the 5-minute steps not folded into it yet; one row a device.
          SELECT device_id, sum(increase) AS increase FROM (
          SELECT r.device_id, r.increase FROM telemetry_1d r
          JOIN dev ON dev.id = r.device_id JOIN items m ON m.model_id = dev.model_id AND m.metric = r.metric
          WHERE r.day = ${today}::date
          UNION ALL
          SELECT f.device_id, f.increase[array_position(f.metrics, m.metric)] FROM telemetry_5m f
          JOIN dev ON dev.id = f.device_id JOIN items m ON m.model_id = dev.model_id
          WHERE m.metric = ANY(f.metrics) AND NOT f.folded AND f.bucket >= ${unfoldedFrom(days.startOf(today))}::timestamptz
          ) today GROUP BY device_id
        )
        SELECT dev.site_id AS id, dev.site_name AS name, count(*)::int AS devices,
               (count(*) FILTER (WHERE dev.online))::int AS online,
               (count(*) FILTER (WHERE dev.open > 0))::int AS in_alarm,
               sum(dev.open)::int AS open_alarms, max(dev.worst) AS worst,
               coalesce(sum(energy.increase), 0)::float8 AS energy
        FROM dev LEFT JOIN energy ON energy.device_id = dev.id
        GROUP BY dev.site_id, dev.site_name`.execute(ctx.db);
      const states = await sql<{ state: string; n: number }>`
        SELECT a.state, count(*)::int AS n ${ALARMS_WITH_SITES}
        WHERE a.state <> 'cleared' AND ${visible}
        GROUP BY a.state`.execute(ctx.db);
      const newest = await alarmPage(ctx.db, visible, { state: 'open', page: 0, pageSize: OVERVIEW_ALARMS });
      const rows = sites.rows;
      const sum = (pick: (row: SiteRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
      const toSite = (row: SiteRow): OverviewSite => ({
        id: row.id,
        name: row.name,
        devices: row.devices,
        online: row.online,
        offline: row.devices - row.online,
        inAlarm: row.in_alarm,
        openAlarms: row.open_alarms,
        worstSeverity: row.worst === null ? null : (SEVERITY_NAMES[row.worst] ?? null),
        energyTodayKwh: kwh(row.energy),
      });
      const count = (state: string) => states.rows.find((row) => row.state === state)?.n ?? 0;
      const body: Overview = {
        day: today,
        devices: {
          total: sum((r) => r.devices),
          online: sum((r) => r.online),
          offline: sum((r) => r.devices - r.online),
          inAlarm: sum((r) => r.in_alarm),
        },
        alarms: { active: count('active'), acknowledged: count('acknowledged'), newest: newest.items },
        energyTodayKwh: kwh(sum((r) => r.energy)),
        sitesTotal: rows.length,
        sites: [...rows].sort(byProblems).slice(0, OVERVIEW_SITES).map(toSite),
      };
      c.header('Cache-Control', 'no-store');
      return c.json(body);
    },
  );
  return app;
}
