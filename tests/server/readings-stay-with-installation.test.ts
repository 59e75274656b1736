import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstalledDevice } from '../../contracts/installs.ts';
import type {
  Alarm,
  DeviceStatus,
  LatestReading,
  Series,
  SiteNow,
  SiteSeries,
} from '../../contracts/monitoring.ts';
import type { Page } from '../../contracts/page.ts';
import type { Reading } from '../../server/monitoring/telemetry/read-frame.ts';
import { storeBatch } from '../../server/monitoring/telemetry/store-batch.ts';
import { IDS, startTestServer, type TestServer, type Who } from './harness.ts';
import { openLive } from './live-stream.ts';

/**
 * Telemetry and alarms are kept by device, and a device keeps its row when it moves: moved from
 * one company's site to another's, its readings, rollups and alarms from before the move stay
 * with the first site. The new holder's charts, latest reading, live stream, alarm list and
 * counts start at the move; whoever sees both sites, and company staff, see all of it. (A serial
 * taken off and installed again by another company is a new device row: its past starts empty.)
 */
let t: TestServer;
const tokens = {} as Record<Who, string>;
const SERIAL = 'HX5K-26-000640';
const EMAILS: Record<Who, string> = {
  admin: 'admin@fleet.example',
  installerA: 'installer@solarpros.example',
  installerB: 'installer@brightvolt.example',
  owner: 'owner@homeowner.example',
};
let device: InstalledDevice;
/** When the readings of each stay were taken, and when the move happened between them. */
let before: number[] = [];
let moved = 0;
let after: number[] = [];

const get = async <T>(who: Who, path: string) => {
  const answer = await t.call('GET', `/monitoring${path}`, { token: tokens[who], apiKey: null });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as T;
};

/** Store readings of the device as the ingest does, and tell live streams of them. */
async function store(times: number[], energyFrom: number, unit: { id: number; serial: string } = device) {
  const catalogue = t.server.ctx.monitoring.catalogue;
  const readings: Reading[] = times.map((at, i) => ({
    deviceId: unit.id,
    serial: unit.serial,
    modelId: 'HX-5000',
    deviceTime: at,
    receivedAt: at,
    flags: 0,
    values: { pvPower: 1000 + i, batterySoc: 50, energyTotal: energyFrom + i },
  }));
  await storeBatch(t.server.ctx.db, readings, (model) => catalogue.product(model)?.spec);
  t.server.ctx.monitoring.live.published([unit.id]);
}

const range = () =>
  `from=${new Date(before[0] as number).toISOString()}&to=${new Date(Date.now() + 600_000).toISOString()}`;

beforeAll(async () => {
  t = await startTestServer();
  for (const who of ['admin', 'installerA', 'installerB', 'owner'] as const) {
    const config = (await t.login(who)).access_token;
    const login = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: EMAILS[who], access_token: config },
    });
    tokens[who] = (login.body as { access_token: string }).access_token;
  }
  const config = (await t.login('installerA')).access_token;
  const installed = await t.call('POST', `/config/fleet/sites/${IDS.siteOfA}/installs`, {
    token: config,
    body: { serial: SERIAL, modelId: 'HX-5000' },
  });
  expect(installed.status).toBe(201);
  device = installed.body as InstalledDevice;
  // Company A's stay: readings over the last two hours, and an alarm.
  const now = Date.now();
  before = Array.from({ length: 24 }, (_, i) => now - 2 * 3_600_000 + i * 300_000);
  await store(before, 100);
  await t.server.ctx.db
    .insertInto('alarms')
    .values({
      device_id: device.id,
      rule: 'fault',
      kind: 'status',
      severity: 'critical',
      message: 'Inverter fault at site A',
      value: 7,
      state: 'active',
      raised_at: new Date(now - 3_600_000),
    })
    .execute();
  // Company B lets A's installer install at its site, and A moves the unit there.
  await t.server.ctx.db
    .insertInto('site_access')
    .values({ site_id: IDS.siteOfB, user_id: IDS.installerA, roles: ['installer'], access: true })
    .execute();
  const move = await t.call('PUT', `/config/fleet/installs/${device.id}`, {
    token: config,
    body: { siteId: IDS.siteOfB },
  });
  expect(move.status, JSON.stringify(move.body)).toBe(200);
  moved = Date.now();
});
afterAll(() => t.close());

describe("a device moved to another company's site", () => {
  it("shows the new holder no power now from the first site's last moments", async () => {
    // A reading taken a moment before the move, received after it: the first site's.
    await store([moved - 1_000], 123);
    before = [...before, moved - 1_000];
    const seenBy = async (who: Who) =>
      (await get<SiteNow>(who, `/sites/${IDS.siteOfB}/now`)).power.production;
    expect(await seenBy('installerB')).toBeNull();
    // Whoever sees both sites sees it.
    expect(await seenBy('installerA')).toBe(1000);
  });

  it('shows the new holder no reading from before the move until one comes, live or stored', async () => {
    const latest = await get<LatestReading>('installerB', `/devices/${SERIAL}/latest`);
    expect(latest).toMatchObject({ receivedAt: null, values: {} });
    const live = await openLive(t.origin, SERIAL, tokens.installerB);
    expect(live.status).toBe(200);
    // Two readings in the 5-minute step of the move (which also holds readings from before it, so
    // the new holder's steps leave it out) and one in the next step.
    const nextStep = Math.ceil(moved / 300_000) * 300_000;
    after = [moved + 1_000, moved + 2_000, nextStep + 1_000];
    await store(after, 500);
    const first = await live.next();
    live.close();
    expect(Date.parse(first.deviceTime)).toBe(after[0]);
  });

  it("starts the new holder's series, raw and in steps, at the move", async () => {
    const raw = await get<Series>(
      'installerB',
      `/devices/${SERIAL}/series?metric=pvPower&step=raw&${range()}`,
    );
    expect(raw.points.map(([at]) => at)).toEqual(after);
    const steps = await get<Series>(
      'installerB',
      `/devices/${SERIAL}/series?metric=pvPower&step=5min&${range()}`,
    );
    // Each step that begins after the move: the average of its readings (pvPower 1000 + index).
    const wholeSteps = new Map<number, number[]>();
    after.forEach((at, i) => {
      const step = Math.floor(at / 300_000) * 300_000;
      if (step >= moved) wholeSteps.set(step, [...(wholeSteps.get(step) ?? []), 1000 + i]);
    });
    expect(steps.points).toEqual(
      [...wholeSteps].map(([step, values]) => [step, values.reduce((x, y) => x + y) / values.length]),
    );
    expect(steps.points.length).toBeGreaterThan(0);
    const hours = await get<Series>(
      'installerB',
      `/devices/${SERIAL}/series?metric=energyTotal&step=1h&${range()}`,
    );
    expect(hours.points.every(([at]) => at >= moved)).toBe(true);
    const site = await get<SiteSeries>(
      'installerB',
      `/sites/${IDS.siteOfB}/series?metric=production&step=5min&${range()}`,
    );
    expect(site.points.every(([at]) => at >= moved)).toBe(true);
  });

  it("counts the new holder's energy today as their energy per day does: not the first site's part", async () => {
    const produced: Partial<Record<Who, number | null>> = {};
    for (const who of ['installerB', 'installerA'] as const) {
      const now = await get<SiteNow>(who, `/sites/${IDS.siteOfB}/now`);
      const from = new Date(Date.now() - 86_400_000).toISOString();
      const perDay = await get<SiteSeries>(
        who,
        `/sites/${IDS.siteOfB}/series?metric=producedEnergy&step=1day&from=${from}&to=${new Date().toISOString()}`,
      );
      const today = perDay.points.find(([at]) => at === Date.parse(now.today.from))?.[1] ?? 0;
      expect(now.today.producedKwh).toBeCloseTo(today, 3);
      produced[who] = now.today.producedKwh;
    }
    // The day of the move holds readings of the first site's: the new holder counts from the next.
    expect(produced.installerB).toBe(0);
    // Whoever sees both sites counts the whole day (the counter went from 123 to 500 at the move).
    expect(produced.installerA).toBeGreaterThan(377);
  });

  it("shows the new holder none of the first site's alarms, in the list or the counts", async () => {
    const alarms = await get<Page<Alarm>>('installerB', `/alarms?serial=${SERIAL}`);
    expect(alarms.items).toEqual([]);
    const devices = await get<Page<DeviceStatus>>('installerB', `/devices?siteId=${IDS.siteOfB}`);
    expect(devices.items.find((d) => d.serial === SERIAL)?.openAlarms).toBe(0);
  });

  it('shows whoever sees both sites, and company staff, the whole past', async () => {
    for (const who of ['installerA', 'admin'] as const) {
      const raw = await get<Series>(who, `/devices/${SERIAL}/series?metric=pvPower&step=raw&${range()}`);
      expect(raw.points.map(([at]) => at)).toEqual([...before, ...after]);
      const alarms = await get<Page<Alarm>>(who, `/alarms?serial=${SERIAL}`);
      expect(alarms.items.map((a) => a.message)).toEqual(['Inverter fault at site A']);
      const devices = await get<Page<DeviceStatus>>(who, `/devices?siteId=${IDS.siteOfB}`);
      expect(devices.items.find((d) => d.serial === SERIAL)?.openAlarms).toBe(1);
    }
  });
});

describe('a serial taken off and installed by another company', () => {
  it('starts with an empty past: a new device row', async () => {
    const serial = 'HX5K-26-000641';
    const asA = (await t.login('installerA')).access_token;
    const first = await t.call('POST', `/config/fleet/sites/${IDS.siteOfA}/installs`, {
      token: asA,
      body: { serial, modelId: 'HX-5000' },
    });
    const unit = first.body as InstalledDevice;
    await store([Date.now() - 600_000], 100, unit);
    expect((await t.call('DELETE', `/config/fleet/installs/${unit.id}`, { token: asA })).status).toBe(204);
    const asB = (await t.login('installerB')).access_token;
    const again = await t.call('POST', `/config/fleet/sites/${IDS.siteOfB}/installs`, {
      token: asB,
      body: { serial, modelId: 'HX-5000' },
    });
    expect(again.status).toBe(201);
    expect(await get<LatestReading>('installerB', `/devices/${serial}/latest`)).toMatchObject({
      receivedAt: null,
    });
    const raw = await get<Series>(
      'installerB',
      `/devices/${serial}/series?metric=pvPower&step=raw&${range()}`,
    );
    expect(raw.points).toEqual([]);
  });
});
