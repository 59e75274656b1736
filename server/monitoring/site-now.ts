import { sql } from 'kysely';
import type { Actor } from '../../contracts/access-policy.ts';
import type { SiteEnergyToday, SiteNow, SitePower } from '../../contracts/monitoring.ts';
import type { MonitoringRole } from '../../contracts/monitoring-terms.ts';
import type { ServerContext } from '../context.ts';
import { readingsSince } from './monitoring-scope.ts';
import { rollupPoints } from './series.ts';
import { dayClock, FIVE_MINUTES_MS } from './telemetry/time-buckets.ts';

/** The parts of the flow (the catalogue's power roles), and the charge. */
const FLOW_PARTS = ['production', 'consumption', 'grid', 'battery', 'soc'] as const;
type FlowRole = (typeof FLOW_PARTS)[number];

/**
 * A reading counts as "now" for this many telemetry intervals: three missed, and some (the live
 * tiles call a device stale after as long).
 */
const NOW_INTERVALS = 3.5;

const HOUR_MS = 3_600_000;
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const kwh = (value: number | null) => (value === null ? null : round(value, 3));
const share = (part: number, whole: number | null) =>
  whole === null || whole <= 0 ? null : round(Math.min(100, Math.max(0, (100 * part) / whole)), 1);

/**
 * Each device of the site with the item it reports for each role (the catalogue's roles), and
 * from when the caller sees its readings (epoch ms; undefined: all of them, installations.ts).
 */
export async function siteDevices(ctx: ServerContext, siteId: number, principal: Actor) {
  const rows = await ctx.db
    .selectFrom('devices')
    .select(['id', 'model_id'])
    .select(readingsSince(principal, sql.ref('devices.id')).as('seen_from'))
    .where('site_id', '=', siteId)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    roles: (ctx.monitoring.catalogue.product(row.model_id)?.spec?.roles ?? {}) as Partial<
      Record<MonitoringRole, string>
    >,
    since: row.seen_from === null ? undefined : new Date(row.seen_from).getTime(),
  }));
}

/** The series of one role at a site: each device that reports it, with its item and from when it counts. */
export function roleSeries(devices: SiteDevices, role: MonitoringRole) {
  return devices.flatMap((device) => {
    const metric = device.roles[role];
    return metric ? [{ deviceId: device.id, metric, since: device.since }] : [];
  });
}

/**
 * Energy its counters produced each day: their increase per day, added up across the devices. The
 * chart's energy per day and today's "produced" are this one query, so they cannot disagree.
 */
export function producedPerDay(
  ctx: ServerContext,
  zone: string,
  devices: SiteDevices,
  from: number,
  to: number,
) {
  return rollupPoints(
    ctx.db,
    zone,
    roleSeries(devices, 'producedEnergy'),
    '1day',
    'increase',
    'sum',
    from,
    to,
  );
}

export type SiteDevices = Awaited<ReturnType<typeof siteDevices>>;

/** The latest readings of the last moments, added up by role (the charge averaged). */
async function powerNow(ctx: ServerContext, devices: SiteDevices, now: number) {
  const since = new Date(now - NOW_INTERVALS * ctx.env.TELEMETRY_INTERVAL_S * 1000).toISOString();
  const rows = await sql<{ device_id: number; received_at: Date; vals: Record<string, number> }>`
    SELECT device_id, received_at, vals FROM telemetry_latest
    WHERE device_id = ANY(${devices.map((d) => d.id)}::int[]) AND received_at >= ${since}::timestamptz`.execute(
    ctx.db,
  );
  const power: SitePower = { production: null, consumption: null, grid: null, battery: null, soc: null };
  const socs: number[] = [];
  let at: number | null = null;
  for (const row of rows.rows) {
    const device = devices.find((d) => d.id === row.device_id);
    const received = new Date(row.received_at).getTime();
    // A reading from before the caller may see the device (its last moments at another site).
    if (!device || (device.since !== undefined && received < device.since)) continue;
    const roles = device.roles;
    at = Math.max(at ?? 0, received);
    for (const part of FLOW_PARTS) {
      const value = roles[part] === undefined ? undefined : row.vals[roles[part] as string];
      if (value === undefined) continue;
      if (part === 'soc') socs.push(value);
      else power[part] = (power[part] ?? 0) + value;
    }
  }
  if (socs.length) power.soc = round(socs.reduce((a, b) => a + b) / socs.length, 1);
  for (const role of ['production', 'consumption', 'grid', 'battery'] as const)
    if (power[role] !== null) power[role] = Math.round(power[role] as number);
  return { power, at, reporting: rows.rows.length };
}

/**
 * Energy since the site's midnight. Produced: today's point of {@link producedPerDay} (the bar of
 * energy per day), else the production power over time. The rest step by step: each 5-minute
 * step's average power of the site's devices by role, times the step's length (the step under way
 * only as far as now); the grid's and battery's steps split by sign into imported and exported,
 * charged and discharged. As in every series, a device counts today only if the caller sees all
 * of its day (series.ts: a day holding anything older is left out).
 */
async function energyToday(
  ctx: ServerContext,
  devices: SiteDevices,
  zone: string,
  now: number,
): Promise<SiteEnergyToday> {
  const clock = dayClock(zone);
  const day = clock.dayOf(now);
  const from = clock.startOf(day);
  const seen = devices.filter((device) => device.since === undefined || device.since <= from);
  const has = (role: MonitoringRole) => devices.some((d) => d.roles[role] !== undefined);
  const [steps, perDay] = await Promise.all([
    sql<{ device_id: number; t: number; metrics: string[]; n: number[]; total: number[] }>`
    SELECT device_id, (extract(epoch from bucket) * 1000)::float8 AS t, metrics, n, total
    FROM telemetry_5m
    WHERE device_id = ANY(${seen.map((d) => d.id)}::int[])
      AND bucket >= ${new Date(from).toISOString()}::timestamptz AND bucket <= ${new Date(now).toISOString()}::timestamptz`.execute(
      ctx.db,
    ),
    has('producedEnergy') ? producedPerDay(ctx, zone, devices, from, now) : undefined,
  ]);
  // The site's power by role in each step: its devices' averages added up.
  const byStep = new Map<number, Partial<Record<FlowRole, number>>>();
  for (const row of steps.rows) {
    const roles = devices.find((d) => d.id === row.device_id)?.roles ?? {};
    const t = Math.round(row.t);
    const step = byStep.get(t) ?? {};
    byStep.set(t, step);
    for (const role of ['production', 'consumption', 'grid', 'battery'] as const) {
      const i = roles[role] === undefined ? -1 : row.metrics.indexOf(roles[role] as string);
      const n = row.n[i] ?? 0;
      if (i >= 0 && n > 0) step[role] = (step[role] ?? 0) + (row.total[i] ?? 0) / n;
    }
  }
  const sums = { production: 0, consumption: 0, imported: 0, exported: 0, charged: 0, discharged: 0 };
  for (const [t, step] of byStep) {
    const hours = Math.max(0, Math.min(FIVE_MINUTES_MS, now - t)) / HOUR_MS;
    const kwhOf = (watts: number | undefined) => ((watts ?? 0) * hours) / 1000;
    sums.production += kwhOf(step.production);
    sums.consumption += kwhOf(step.consumption);
    sums.imported += kwhOf(Math.max(0, step.grid ?? 0));
    sums.exported += kwhOf(Math.max(0, -(step.grid ?? 0)));
    sums.charged += kwhOf(Math.max(0, step.battery ?? 0));
    sums.discharged += kwhOf(Math.max(0, -(step.battery ?? 0)));
  }
  const counted = perDay ? (perDay.find(([t]) => t === from)?.[1] ?? 0) : undefined;
  const produced = counted ?? (has('production') ? sums.production : null);
  const consumed = has('consumption') ? sums.consumption : null;
  const grid = has('grid');
  const battery = has('battery');
  return {
    day,
    from: new Date(from).toISOString(),
    producedKwh: kwh(produced),
    consumedKwh: kwh(consumed),
    importedKwh: grid ? kwh(sums.imported) : null,
    exportedKwh: grid ? kwh(sums.exported) : null,
    chargedKwh: battery ? kwh(sums.charged) : null,
    dischargedKwh: battery ? kwh(sums.discharged) : null,
    selfConsumption: grid && produced !== null ? share(produced - sums.exported, produced) : null,
    autarky: grid && consumed !== null ? share(consumed - sums.imported, consumed) : null,
  };
}

/** The site's power flow now and its energy balance today (`GET /sites/{siteId}/now`). */
export async function siteNow(
  ctx: ServerContext,
  site: { id: number; timeZone: string },
  principal: Actor,
  now = Date.now(),
): Promise<SiteNow> {
  const devices = await siteDevices(ctx, site.id, principal);
  const flow = devices.filter((d) => FLOW_PARTS.some((part) => d.roles[part] !== undefined));
  const [{ power, at, reporting }, today] = await Promise.all([
    powerNow(ctx, flow, now),
    energyToday(ctx, devices, site.timeZone, now),
  ]);
  return {
    siteId: site.id,
    timeZone: site.timeZone,
    at: at === null ? null : new Date(at).toISOString(),
    devices: flow.length,
    reporting,
    power,
    today,
  };
}
