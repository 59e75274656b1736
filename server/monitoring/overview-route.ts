import { Hono } from 'hono';
import { sql } from 'kysely';
import {
  countsQuerySchema,
  type FleetCounts,
  fleetCountsSchema,
  OVERVIEW_ALARMS,
  OVERVIEW_SITES,
  type Overview,
  type OverviewSite,
  overviewSchema,
} from '../../contracts/monitoring.ts';
import { siteVisible } from '../access/scope.ts';
import { visibleSiteTotal } from '../cache/list-totals.ts';
import type { ServerContext } from '../context.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { alarmPage } from './alarms/alarm-queries.ts';
import { SEVERITY_NAMES } from './device-status.ts';
import {
  alarmCounts,
  DEVICE_COUNT_COLUMNS,
  type DeviceCountRow,
  deviceCounts,
  deviceStates,
  toDeviceCounts,
} from './fleet-counts.ts';
import { alarmsSince, readingsSince, requireVisibleSite, visibleAlarms } from './monitoring-scope.ts';
import { unfoldedFrom } from './series.ts';
import { HOUR_MS } from './telemetry/time-buckets.ts';

interface SiteRow extends DeviceCountRow {
  id: number;
  name: string;
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
    b.offline - a.offline ||
    a.name.localeCompare(b.name) ||
    a.id - b.id
  );
}

/**
 * Every site's day under way began at most this long ago (a 25-hour day, when clocks go back):
 * its steps not folded yet are read back to there, however far the fold lags, as a site's page does.
 */
const LONGEST_DAY_MS = 25 * HOUR_MS;

/** `GET /overview`: the caller's fleet now, for Home; `GET /counts`: its counts alone, for a site too. */
export function overviewRoute(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();

  app.get(
    '/overview',
    describeRoute({
      summary:
        "The caller's fleet now: devices by state, alarms by state and the newest open ones, today's produced energy, sites with problems first",
      tag: 'monitoring',
      responses: { 200: { description: 'The overview', schema: overviewSchema } },
    }),
    async (c) => {
      const principal = c.get('principal');
      const visible = siteVisible(principal);
      // Alarms and today's energy from when the caller sees each device (installations.ts).
      const seen = alarmsSince(principal);
      const alarmsSeen = visibleAlarms(principal);
      const online = ctx.comms.presence.onlineCondition();
      const { catalogue } = ctx.monitoring;
      const now = new Date().toISOString();
      // Which item of each model is its produced-energy counter (the catalogue's roles).
      const energyItems = [...catalogue.all().values()].flatMap((product) => {
        const metric = product.spec?.roles.producedEnergy;
        return metric ? [{ modelId: product.modelId, metric }] : [];
      });
      const sites = await sql<SiteRow>`
        WITH dev AS (${deviceStates(visible, online, seen)}),
        own AS (
          -- Sites' own alarms (every device silent).
          SELECT site_id, count(*)::int AS open,
                 max(CASE severity WHEN 'critical' THEN 3 WHEN 'warning' THEN 2 ELSE 1 END) AS worst
          FROM alarms WHERE state <> 'cleared' AND site_id IS NOT NULL GROUP BY site_id
        ), items AS (
          SELECT * FROM unnest(${energyItems.map((e) => e.modelId)}::text[], ${energyItems.map((e) => e.metric)}::text[])
            AS m(model_id, metric)
        ), day AS (
          -- Each device's today (its site's, in the site's zone) and from when the caller sees it.
          SELECT dev.id, dev.model_id, sites.time_zone,
                 (${now}::timestamptz AT TIME ZONE sites.time_zone)::date AS today,
                 ${readingsSince(principal, sql.ref('dev.id'))} AS seen_from
          FROM dev JOIN sites ON sites.id = dev.site_id
        ), energy AS (
          -- Today: its folded steps, and the 5-minute steps not folded into it yet; one row a device.
          SELECT device_id, sum(increase) AS increase FROM (
          SELECT r.device_id, r.increase FROM telemetry_1d r
          JOIN day ON day.id = r.device_id JOIN items m ON m.model_id = day.model_id AND m.metric = r.metric
          WHERE r.day = day.today
            AND (day.seen_from IS NULL OR day.seen_from <= (day.today::timestamp AT TIME ZONE day.time_zone))
          UNION ALL
          SELECT f.device_id, f.increase[array_position(f.metrics, m.metric)] FROM telemetry_5m f
          JOIN day ON day.id = f.device_id JOIN items m ON m.model_id = day.model_id
          WHERE m.metric = ANY(f.metrics) AND NOT f.folded AND f.bucket >= ${unfoldedFrom(0, Date.parse(now), Date.parse(now) - LONGEST_DAY_MS)}::timestamptz
            AND (f.bucket AT TIME ZONE day.time_zone)::date = day.today
            AND (day.seen_from IS NULL OR f.bucket >= day.seen_from)
          ) today GROUP BY device_id
        )
        SELECT dev.site_id AS id, dev.site_name AS name, ${DEVICE_COUNT_COLUMNS},
               (sum(dev.open_alarms) + coalesce(max(own.open), 0))::int AS open_alarms,
               greatest(max(dev.worst), max(own.worst)) AS worst,
               coalesce(sum(energy.increase), 0)::float8 AS energy
        FROM dev LEFT JOIN energy ON energy.device_id = dev.id LEFT JOIN own ON own.site_id = dev.site_id
        GROUP BY dev.site_id, dev.site_name`.execute(ctx.db);
      const [devices, alarms, newest, sitesTotal] = await Promise.all([
        deviceCounts(ctx.db, visible, online, seen),
        alarmCounts(ctx.db, alarmsSeen),
        alarmPage(ctx.db, alarmsSeen, { state: 'open', page: 0, pageSize: OVERVIEW_ALARMS }),
        visibleSiteTotal(ctx.db, principal),
      ]);
      const toSite = (row: SiteRow): OverviewSite => {
        const counts = toDeviceCounts(row);
        return {
          id: row.id,
          name: row.name,
          devices: counts.total,
          online: counts.online,
          offline: counts.offline,
          neverConnected: counts.neverConnected,
          inAlarm: counts.inAlarm,
          openAlarms: row.open_alarms,
          worstSeverity: row.worst === null ? null : (SEVERITY_NAMES[row.worst] ?? null),
          energyTodayKwh: kwh(row.energy),
        };
      };
      const body: Overview = {
        devices,
        alarms: { ...alarms, newest: newest.items },
        energyTodayKwh: kwh(sites.rows.reduce((total, row) => total + row.energy, 0)),
        sitesTotal,
        sites: [...sites.rows].sort(byProblems).slice(0, OVERVIEW_SITES).map(toSite),
      };
      c.header('Cache-Control', 'no-store');
      return c.json(body);
    },
  );

  app.get(
    '/counts',
    describeRoute({
      summary:
        "The caller's devices and alarms by state, at every site they see or at one (`siteId`): the counts Home and the lists show",
      tag: 'monitoring',
      responses: {
        200: { description: 'Devices and alarms by state', schema: fleetCountsSchema },
        404: { description: 'No such site, or the caller may not see it' },
      },
    }),
    validate('query', countsQuerySchema),
    async (c) => {
      const principal = c.get('principal');
      const { siteId } = c.req.valid('query');
      if (siteId !== undefined) await requireVisibleSite(ctx, principal, siteId);
      const online = ctx.comms.presence.onlineCondition();
      const [devices, alarms] = await Promise.all([
        deviceCounts(ctx.db, siteVisible(principal), online, alarmsSince(principal), siteId),
        alarmCounts(ctx.db, visibleAlarms(principal), { siteId }),
      ]);
      const body: FleetCounts = { devices, alarms };
      c.header('Cache-Control', 'no-store');
      return c.json(body);
    },
  );
  return app;
}
