import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  overviewSchema,
  type SiteSeries,
  siteNowSchema,
  siteSeriesSchema,
} from '../../contracts/monitoring.ts';
import { type Site, siteSchema } from '../../contracts/sites.ts';
import { migrate } from '../../server/db/migrations.ts';
import { seedTelemetryHistory } from '../../server/db/seed-telemetry.ts';
import { ensurePartitions } from '../../server/monitoring/telemetry/partitions.ts';
import type { Reading } from '../../server/monitoring/telemetry/read-frame.ts';
import { foldRollups } from '../../server/monitoring/telemetry/rollup-fold.ts';
import { storeBatch } from '../../server/monitoring/telemetry/store-batch.ts';
import { dayClock } from '../../server/monitoring/telemetry/time-buckets.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * A site's days are its own: they start at midnight in the site's time zone, which a new site gets
 * from its position (or its country, or `TELEMETRY_TIME_ZONE`), so energy per day in Chicago holds
 * 23 hours on the day the clocks go forward and 25 on the day they go back, and a day's point
 * stands at the site's midnight. A site moved to another zone counts its kept days again.
 */
let t: TestServer;
let token = '';
let monitoringToken = '';
const STEP = 300_000;
/** Every 5-minute step the counter grows by this (kWh), so a day's energy counts its steps. */
const PER_STEP = 0.25;

const address = {
  displayAddress: '600 Congress Ave, Austin, TX 78701, USA',
  streetName: 'Congress Ave',
  locality: 'Austin',
  country: 'US',
};

async function createSite(body: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  return t.call('POST', '/config/sites', { token, body: { name: 'Zone test', ...address, ...body } });
}

async function siteIn(body: Record<string, unknown>): Promise<Site> {
  const created = await createSite(body);
  expect(created.status).toBe(201);
  return siteSchema.parse(created.body);
}

/**
 * An HX-5000 on the site reporting every 5 minutes over [from, to): its energy counter grows by
 * {@link PER_STEP} each time, its other values are `values(time)`. The steps that ended before
 * `foldBefore` (by default all of them) are folded into their hours and days, as the minute's fold
 * does; the others wait for it.
 */
async function deviceReporting(
  siteId: number,
  serial: string,
  from: number,
  to: number,
  values: (at: number) => Record<string, number> = () => ({ pvPower: 1000 }),
  foldBefore = Math.min(Date.now(), to + 10 * STEP),
): Promise<void> {
  const { db, monitoring } = t.server.ctx;
  const device = await db
    .insertInto('devices')
    .values({ model_id: 'HX-5000', serial, name: 'Garage inverter', site_id: siteId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ensurePartitions(db, from, to);
  const readings: Reading[] = [];
  const times: number[] = [];
  for (let at = from; at < to; at += STEP) times.push(at);
  // Up to now: the newest reading comes a second ago, as from a device reporting now.
  if (to >= Date.now() - 60_000 && (times.at(-1) ?? to) < to - 1000) times.push(to - 1000);
  for (const [step, at] of times.entries())
    readings.push({
      deviceId: device.id,
      serial,
      modelId: 'HX-5000',
      deviceTime: at,
      receivedAt: at,
      flags: 0,
      values: { ...values(at), energyTotal: 100 + step * PER_STEP },
    });
  const spec = (model: string) => monitoring.catalogue.product(model)?.spec;
  for (let i = 0; i < readings.length; i += 2000) await storeBatch(db, readings.slice(i, i + 2000), spec);
  await foldRollups(db, foldBefore);
}

async function monitoringGet(path: string): Promise<unknown> {
  const answer = await t.call('GET', `/monitoring${path}`, { token: monitoringToken, apiKey: null });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function energyPerDay(siteId: number, from: number, to: number): Promise<SiteSeries> {
  const query = new URLSearchParams({
    metric: 'producedEnergy',
    step: '1day',
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
  });
  const answer = await t.call('GET', `/monitoring/sites/${siteId}/series?${query}`, {
    token: monitoringToken,
    apiKey: null,
  });
  expect(answer.status).toBe(200);
  return siteSeriesSchema.parse(answer.body);
}

beforeAll(async () => {
  t = await startTestServer({ TELEMETRY_TIME_ZONE: 'Asia/Tokyo' });
  const config = await t.login('installerA');
  const monitoring = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: 'installer@solarpros.example', access_token: config.access_token },
    apiKey: null,
  });
  token = config.access_token;
  expect(monitoring.status).toBe(200);
  monitoringToken = (monitoring.body as { access_token: string }).access_token;
});
afterAll(async () => {
  await t?.close();
});

describe("a site's time zone", () => {
  it('is the zone at its position, else its country’s, else TELEMETRY_TIME_ZONE, unless one is named', async () => {
    expect((await siteIn({ latitude: 30.2672, longitude: -97.7431 })).timeZone).toBe('America/Chicago');
    expect((await siteIn({ latitude: 48.1372, longitude: 11.5755, country: 'DE' })).timeZone).toBe(
      'Europe/Berlin',
    );
    expect((await siteIn({ latitude: -1, longitude: -1, country: 'Germany' })).timeZone).toBe(
      'Europe/Berlin',
    );
    expect((await siteIn({ latitude: -1, longitude: -1, country: 'Atlantis' })).timeZone).toBe('Asia/Tokyo');
    expect(
      (await siteIn({ latitude: 30.2672, longitude: -97.7431, timeZone: 'America/Denver' })).timeZone,
    ).toBe('America/Denver');
  });

  it('answers 400 naming timeZone for a zone that does not exist', async () => {
    const answer = await createSite({
      latitude: 30.2672,
      longitude: -97.7431,
      timeZone: 'Mars/Olympus_Mons',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_input', field: 'timeZone' });
  });

  it('follows an edited position, and stays when only the name changes', async () => {
    const site = await siteIn({ latitude: 30.2672, longitude: -97.7431 });
    const put = (body: Record<string, unknown>) =>
      t.call('PUT', `/config/sites/${site.id}`, { token, body: { name: site.name, ...address, ...body } });
    const renamed = await put({ name: 'Renamed', latitude: 30.2672, longitude: -97.7431 });
    expect(siteSchema.parse(renamed.body).timeZone).toBe('America/Chicago');
    const moved = await put({ latitude: 33.4484, longitude: -112.074 });
    expect(siteSchema.parse(moved.body).timeZone).toBe('America/Phoenix');
  });
});

describe('days at a site', () => {
  it('holds 23 hours on the day clocks go forward, and its points stand at local midnight', async () => {
    const site = await siteIn({ latitude: 41.8781, longitude: -87.6298 });
    expect(site.timeZone).toBe('America/Chicago');
    // 2026-03-07 00:00 CST to 2026-03-10 00:00 CDT; clocks go forward at 2:00 on 8 March.
    const from = Date.parse('2026-03-07T06:00:00Z');
    const to = Date.parse('2026-03-10T05:00:00Z');
    await deviceReporting(site.id, 'HX5K-26-900001', from, to);
    const series = await energyPerDay(site.id, from, to);
    expect(series.points).toEqual([
      // The counter's first reading has no growth before it.
      [Date.parse('2026-03-07T06:00:00Z'), 287 * PER_STEP],
      [Date.parse('2026-03-08T06:00:00Z'), 23 * 12 * PER_STEP],
      [Date.parse('2026-03-09T05:00:00Z'), 24 * 12 * PER_STEP],
    ]);
  });

  it('holds 25 hours on the day clocks go back', async () => {
    const site = await siteIn({ latitude: 41.8781, longitude: -87.6298 });
    // 2026-10-31 00:00 CDT to 2026-11-03 00:00 CST; clocks go back at 2:00 on 1 November.
    const from = Date.parse('2026-10-31T05:00:00Z');
    const to = Date.parse('2026-11-03T06:00:00Z');
    await deviceReporting(site.id, 'HX5K-26-900002', from, to);
    const series = await energyPerDay(site.id, from, to);
    expect(series.points).toEqual([
      [Date.parse('2026-10-31T05:00:00Z'), 287 * PER_STEP],
      [Date.parse('2026-11-01T05:00:00Z'), 25 * 12 * PER_STEP],
      [Date.parse('2026-11-02T06:00:00Z'), 24 * 12 * PER_STEP],
    ]);
  });

  it('are counted again when the site gets another zone', async () => {
    const site = await siteIn({ latitude: 41.8781, longitude: -87.6298 });
    const from = Date.parse('2026-03-07T06:00:00Z');
    const to = Date.parse('2026-03-10T05:00:00Z');
    await deviceReporting(site.id, 'HX5K-26-900003', from, to);
    const moved = await t.call('PUT', `/config/sites/${site.id}`, {
      token,
      body: { name: site.name, ...address, latitude: 41.8781, longitude: -87.6298, timeZone: 'UTC' },
    });
    expect(siteSchema.parse(moved.body).timeZone).toBe('UTC');
    const series = await energyPerDay(site.id, from, to);
    // UTC days: 7 March from 06:00 (18 hours), two whole days, 10 March to 05:00 (5 hours).
    expect(series.points).toEqual([
      [Date.parse('2026-03-07T00:00:00Z'), (18 * 12 - 1) * PER_STEP],
      [Date.parse('2026-03-08T00:00:00Z'), 24 * 12 * PER_STEP],
      [Date.parse('2026-03-09T00:00:00Z'), 24 * 12 * PER_STEP],
      [Date.parse('2026-03-10T00:00:00Z'), 5 * 12 * PER_STEP],
    ]);
  });
});

describe("a site's power flow now and energy balance today", () => {
  it('adds up the latest readings by role, and counts energy from midnight at the site', async () => {
    const site = await siteIn({ latitude: 41.8781, longitude: -87.6298 });
    const now = Date.now();
    const midnight = dayClock('America/Chicago').startOf(dayClock('America/Chicago').dayOf(now));
    const today = (at: number) => at >= midnight;
    // Yesterday evening the sun did not shine and the site imported; today it exports a surplus.
    await deviceReporting(site.id, 'HX5K-26-900004', midnight - 2 * 3_600_000, now, (at) =>
      today(at)
        ? { pvPower: 2000, loadPower: 500, gridPower: -1500, batteryPower: 0, batterySoc: 80 }
        : { pvPower: 0, loadPower: 3000, gridPower: 3000, batteryPower: 0, batterySoc: 60 },
    );
    const body = siteNowSchema.parse(await monitoringGet(`/sites/${site.id}/now`));
    expect(body).toMatchObject({
      timeZone: 'America/Chicago',
      devices: 1,
      reporting: 1,
      power: { production: 2000, consumption: 500, grid: -1500, battery: 0, soc: 80 },
    });
    const hours = (Date.now() - midnight) / 3_600_000;
    // Readings today: one each 5 minutes from midnight, and one just now.
    const steps = Math.ceil((now - 1000 - midnight) / STEP) + 1;
    expect(body.today.from).toBe(new Date(midnight).toISOString());
    expect(body.today.producedKwh).toBeCloseTo(steps * PER_STEP, 3);
    expect(body.today.consumedKwh).toBeCloseTo(0.5 * hours, 2);
    expect(body.today.exportedKwh).toBeCloseTo(1.5 * hours, 2);
    expect(body.today.importedKwh).toBe(0);
    expect(body.today.autarky).toBe(100);
  });

  it("counts today's energy as today's bar of energy per day does, however far the fold lags", async () => {
    // A site whose day under way is some hours old, whatever the hour of the run.
    const now = Date.now();
    const zone = ['America/Chicago', 'Asia/Tokyo'].find(
      (z) => now - dayClock(z).startOf(dayClock(z).dayOf(now)) >= 3 * 3_600_000,
    ) as string;
    const site = await siteIn({
      displayAddress: '121 N LaSalle St, Chicago, IL 60602, USA',
      streetName: 'N LaSalle St',
      locality: 'Chicago',
      latitude: 41.8781,
      longitude: -87.6298,
      timeZone: zone,
    });
    const midnight = dayClock(zone).startOf(dayClock(zone).dayOf(now));
    const homeBefore = overviewSchema.parse(await monitoringGet('/overview')).energyTodayKwh;
    // Readings from yesterday evening (the UTC date and the site's differ) until now, sent late:
    // yesterday's steps are folded into their day, none of today's yet.
    await deviceReporting(site.id, 'HX5K-26-900007', midnight - 2 * 3_600_000, now, undefined, midnight);
    const produced = siteNowSchema.parse(await monitoringGet(`/sites/${site.id}/now`)).today.producedKwh;
    const bars = (await energyPerDay(site.id, now - 86_400_000, Date.now())).points;
    // Every reading since midnight grew the counter by one step's energy, each in its own step.
    const steps = Math.ceil((now - 1000 - midnight) / STEP) + 1;
    expect(bars.at(-1)).toEqual([midnight, expect.closeTo(steps * PER_STEP, 6)]);
    expect(produced).toBeCloseTo(steps * PER_STEP, 3);
    expect(bars.at(-1)?.[1]).toBeCloseTo(produced as number, 3);
    // Home's energy today grew by as much (the site is one of many, not always among those listed).
    const home = overviewSchema.parse(await monitoringGet('/overview')).energyTodayKwh;
    expect(home - homeBefore).toBeCloseTo(produced as number, 3);
  });

  it('marks the step under way as partial, and a range ending yesterday as whole', async () => {
    const site = await siteIn({ latitude: 41.8781, longitude: -87.6298 });
    const now = Date.now();
    const clock = dayClock('America/Chicago');
    const midnight = clock.startOf(clock.dayOf(now));
    await deviceReporting(site.id, 'HX5K-26-900005', midnight - 2 * 86_400_000, now);
    expect((await energyPerDay(site.id, midnight - 2 * 86_400_000, now)).partial).toBe(true);
    expect((await energyPerDay(site.id, midnight - 2 * 86_400_000, midnight)).partial).toBe(false);
  });
});

describe("the demo's seeded history", () => {
  it('begins no earlier than the device was installed', async () => {
    const site = await siteIn({ latitude: 30.2672, longitude: -97.7431 });
    const { db, monitoring } = t.server.ctx;
    const installedAt = Date.now() - 2 * 86_400_000;
    const device = await db
      .insertInto('devices')
      .values({ model_id: 'HX-5000', serial: 'HX5K-26-900006', name: 'New inverter', site_id: site.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await seedTelemetryHistory(
      { db, catalogue: monitoring.catalogue, alarms: monitoring.alarms, rawDays: 7 },
      [
        {
          id: device.id,
          serial: 'HX5K-26-900006',
          modelId: 'HX-5000',
          place: { latitude: 30.2672, longitude: -97.7431, country: 'US', installedAt },
        },
      ],
    );
    const span = await sql<{ first: Date; n: number }>`
      SELECT min(device_time) AS first, count(*)::int AS n FROM telemetry_raw WHERE device_id = ${device.id}`.execute(
      db,
    );
    const first = new Date(span.rows[0]?.first ?? 0).getTime();
    expect(span.rows[0]?.n).toBeGreaterThan(500);
    expect(first).toBeGreaterThanOrEqual(installedAt);
    expect(first - installedAt).toBeLessThan(STEP);
  });
});

describe('sites made before sites had time zones', () => {
  it('get the zone at their position, else their country’s, else TELEMETRY_TIME_ZONE, by migration', async () => {
    const { db } = t.server.ctx;
    await sql`ALTER TABLE sites DROP COLUMN time_zone`.execute(db);
    await sql`DELETE FROM schema_migrations WHERE version = 16`.execute(db);
    const made = await sql<{ id: number }>`
      INSERT INTO sites (name, display_address, country, latitude, longitude) VALUES
        ('Munich', 'x', 'DE', 48.1372, 11.5755), ('Somewhere in Japan', 'x', 'Japan', -1, -1),
        ('Nowhere', 'x', '', -1, -1)
      RETURNING id`.execute(db);
    expect(await migrate(db, { fallbackZone: 'Pacific/Auckland' })).toEqual([16]);
    const zones = await db
      .selectFrom('sites')
      .select(['id', 'time_zone', 'locality'])
      .where(
        'id',
        'in',
        made.rows.map((row) => row.id),
      )
      .orderBy('id')
      .execute();
    expect(zones.map((row) => row.time_zone)).toEqual(['Europe/Berlin', 'Asia/Tokyo', 'Pacific/Auckland']);
    // The demo's sites lie in Texas, Arizona, California, Colorado, New Mexico and Nevada (the
    // sites made above stand at one address in Austin, whatever their position).
    const seeded = await db
      .selectFrom('sites')
      .select(['locality', 'time_zone'])
      .where('locality', 'in', ['Austin', 'Phoenix', 'Denver'])
      .where('display_address', '<>', address.displayAddress)
      .execute();
    const zoneOf = Object.fromEntries(seeded.map((row) => [row.locality, row.time_zone]));
    expect(zoneOf).toEqual({
      Austin: 'America/Chicago',
      Phoenix: 'America/Phoenix',
      Denver: 'America/Denver',
    });
  });
});
