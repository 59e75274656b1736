import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm } from '../../contracts/monitoring.ts';
import {
  alarmPageSchema,
  alarmSchema,
  type LatestReading,
  latestReadingSchema,
  overviewSchema,
  seriesSchema,
  siteSeriesSchema,
  telemetryCountsSchema,
} from '../../contracts/monitoring.ts';
import type { Page } from '../../contracts/page.ts';
import type { DeviceSecret } from '../../contracts/service-comms.ts';

type AlarmPage = Page<Alarm>;

import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { IDS, startTestServer, type TestServer, type Who } from './harness.ts';
import { openLive } from './live-stream.ts';
import { rawDevice } from './service-comms-devices.ts';
import { bundledConfig, telemetryFrame } from './telemetry-frames.ts';

/**
 * The monitoring service end to end in process: telemetry over the real device socket (refused,
 * marked and stored as docs/api.md says), the latest reading, series, the live stream, a site's
 * series, the overview, and an alarm raised, mailed, acknowledged and cleared — each answering only
 * to those who see the device.
 */
let t: TestServer;
let codec: Codec;
const hybrid = bundledConfig('hybrid5k');
const tokens = {} as Record<Who, string>;
let serial = '';
let deviceId = 0;
let device: ReturnType<typeof rawDevice>;
const START = Date.now();

const get = (path: string, who: Who = 'admin') =>
  t.call('GET', `/monitoring${path}`, { token: tokens[who], apiKey: null });

/** Send a telemetry message on the device's socket. */
function sendTelemetry(data: unknown): void {
  device.socket.send(JSON.stringify({ type: 'telemetry', data }));
}

/**
 * Write what the service took in: a ping answered by the service comes after every message sent
 * before it on the same socket (one connection, in order), then the ingest writes its batch.
 */
async function stored(): Promise<void> {
  await new Promise<void>((resolve) => {
    device.socket.once('pong', () => resolve());
    device.socket.ping();
  });
  await t.server.ctx.monitoring.ingest.flush();
}

/**
 * A device time for the next reading: a second past both now and the last one, so that it is the
 * device's newest (device times are whole seconds; a reading stored at its time received is not).
 */
let lastTime = 0;
function nextTime(): number {
  lastTime = Math.max(Date.now(), lastTime) + 1000;
  return lastTime;
}

/** Readings averaged per 5-minute step, as the rollups should hold them. */
function fiveMinuteAverages(points: [number, number][]): [number, number][] {
  const steps = new Map<number, number[]>();
  for (const [at, value] of points) {
    const step = Math.floor(at / 300_000) * 300_000;
    steps.set(step, [...(steps.get(step) ?? []), value]);
  }
  return [...steps]
    .sort(([a], [b]) => a - b)
    .map(([step, values]) => [step, values.reduce((x, y) => x + y) / values.length]);
}

async function counts(): Promise<Record<string, number>> {
  const answer = await get('/telemetry/counts');
  return telemetryCountsSchema.parse(answer.body).days[0]?.counts ?? {};
}

beforeAll(async () => {
  t = await startTestServer({ TELEMETRY_INTERVAL_S: '1', ALARM_OFFLINE_AFTER_S: '60' });
  codec = await loadCodec();
  for (const who of ['admin', 'installerA', 'installerB', 'owner'] as const) {
    const config = (await t.login(who)).access_token;
    const login = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: emailOf(who), access_token: config },
    });
    tokens[who] = (login.body as { access_token: string }).access_token;
  }
  const row = await t.server.ctx.db
    .selectFrom('devices')
    .select(['id', 'serial'])
    .where('site_id', '=', IDS.siteOfOwner)
    .where('model_id', '=', 'HX-5000')
    .executeTakeFirstOrThrow();
  serial = row.serial;
  deviceId = row.id;
  const secret = await t.call('POST', `/config/service-comms/devices/${serial}/secret`, {
    token: (await t.login('admin')).access_token,
    apiKey: null,
  });
  device = rawDevice(t.origin, {
    type: 'hello',
    serialNumber: serial,
    modelId: 'HX-5000',
    secret: (secret.body as DeviceSecret).secret,
  });
  // Telemetry before the welcome proves nothing: counted as unauthenticated, never stored.
  device.socket.once('open', () => sendTelemetry(telemetryFrame(codec, hybrid, START)));
  await device.welcomed;
});
afterAll(async () => {
  device?.socket.close();
  await t.close();
});

function emailOf(who: Who): string {
  return {
    admin: 'admin@fleet.example',
    installerA: 'installer@solarpros.example',
    installerB: 'installer@brightvolt.example',
    owner: 'owner@homeowner.example',
  }[who];
}

describe('telemetry from a device', () => {
  it('stores a good reading, counts and drops the bad ones, stores a resent one once', async () => {
    sendTelemetry(telemetryFrame(codec, hybrid, START - 60_000, { pvPower: 2000, batterySoc: 50 }));
    const badCrc = telemetryFrame(codec, hybrid, START);
    badCrc[253] = (badCrc[253] ?? 0) ^ 0xff;
    sendTelemetry(badCrc);
    sendTelemetry(telemetryFrame(codec, hybrid, START).slice(0, 200));
    sendTelemetry(telemetryFrame(codec, hybrid, START, {}, 0x81));
    sendTelemetry('not bytes');
    // The same reading again (same device time): stored once.
    sendTelemetry(telemetryFrame(codec, hybrid, START - 60_000, { pvPower: 2000, batterySoc: 50 }));
    // A clock an hour fast: stored at the time received, and marked.
    sendTelemetry(telemetryFrame(codec, hybrid, START + 3_600_000, { pvPower: 2200, batterySoc: 51 }));
    sendTelemetry(telemetryFrame(codec, hybrid, START - 30 * 86_400_000));
    await stored();
    expect(await counts()).toEqual({
      unauthenticated: 1,
      stored: 2,
      bad_crc: 1,
      wrong_length: 1,
      wrong_opcode: 1,
      malformed: 1,
      duplicate: 1,
      clock_ahead: 1,
      too_old: 1,
    });
    const raw = await t.server.ctx.db
      .selectFrom('telemetry_raw')
      .select(['device_time', 'received_at', 'flags'])
      .where('device_id', '=', deviceId)
      .orderBy('device_time')
      .execute();
    expect(raw).toHaveLength(2);
    expect(new Date(raw[0]?.device_time ?? 0).getTime()).toBe(Math.floor((START - 60_000) / 1000) * 1000);
    // The fast clock's reading: at the time it was received, flagged.
    expect(raw[1]?.flags).toBe(1);
    expect(new Date(raw[1]?.device_time ?? 0).getTime()).toBe(new Date(raw[1]?.received_at ?? 0).getTime());
  });

  it('answers the latest reading with its units, to those who see the device and no one else', async () => {
    const latest = latestReadingSchema.parse((await get(`/devices/${serial}/latest`, 'owner')).body);
    expect(latest).toMatchObject<Partial<LatestReading>>({
      serial,
      modelId: 'HX-5000',
      online: true,
      clockAhead: true,
    });
    expect(latest.values).toMatchObject({ pvPower: 2200, batterySoc: 51, faultCode: 0 });
    expect(latest.units).toMatchObject({ pvPower: 'W', batterySoc: '%', energyTotal: 'kWh' });
    expect(latest.units.faultCode).toBeUndefined();
    expect((await get(`/devices/${serial}/latest`, 'installerB')).status).toBe(404);
    expect((await get('/devices/HX5K-24-999999/latest')).status).toBe(404);
  });

  it('answers a series at the finest step that fits, and refuses bad ranges and unknown metrics', async () => {
    // Twenty minutes of readings each second: 1,200 points at most, so every reading.
    const from = new Date(START - 600_000).toISOString();
    const to = new Date(START + 600_000).toISOString();
    const raw = seriesSchema.parse(
      (await get(`/devices/${serial}/series?metric=pvPower&from=${from}&to=${to}`)).body,
    );
    expect(raw).toMatchObject({ metric: 'pvPower', unit: 'W', step: 'raw', values: 'reading' });
    expect(raw.points.map(([, v]) => v)).toEqual([2000, 2200]);
    const day = new Date(START - 86_400_000).toISOString();
    const fiveMinutes = seriesSchema.parse(
      (await get(`/devices/${serial}/series?metric=pvPower&from=${day}&to=${to}`)).body,
    );
    expect(fiveMinutes.step).toBe('5min');
    expect(fiveMinutes.points).toEqual(fiveMinuteAverages(raw.points));
    const year = new Date(START - 365 * 86_400_000).toISOString();
    const daily = seriesSchema.parse(
      (await get(`/devices/${serial}/series?metric=energyTotal&from=${year}&to=${to}`)).body,
    );
    expect(daily).toMatchObject({ step: '1day', values: 'increase', unit: 'kWh' });
    const bad = async (query: string) => {
      const answer = await get(`/devices/${serial}/series?${query}`);
      return [answer.status, (answer.body as { field?: string }).field];
    };
    expect(await bad(`metric=nothing&from=${from}&to=${to}`)).toEqual([400, 'metric']);
    expect(await bad(`metric=pvPower&from=${to}&to=${from}`)).toEqual([400, 'from']);
    expect(await bad(`metric=pvPower&from=yesterday&to=${to}`)).toEqual([400, 'from']);
    expect(await bad(`metric=pvPower&from=1999-01-01T00:00:00Z&to=${to}`)).toEqual([400, 'from']);
    expect(await bad(`metric=pvPower&from=2001-01-01T00:00:00Z&to=2020-01-01T00:00:00Z`)).toEqual([
      400,
      'to',
    ]);
    expect(await bad(`metric=pvPower&from=${year}&to=${to}&step=raw`)).toEqual([400, 'step']);
    expect(
      (await get(`/devices/${serial}/series?metric=pvPower&from=${from}&to=${to}`, 'installerB')).status,
    ).toBe(404);
  });

  it('adds up a site: power summed over its devices', async () => {
    const from = new Date(START - 86_400_000).toISOString();
    const to = new Date(START + 7_200_000).toISOString();
    const answer = await get(
      `/sites/${IDS.siteOfOwner}/series?metric=production&from=${from}&to=${to}`,
      'owner',
    );
    const site = siteSeriesSchema.parse(answer.body);
    expect(site).toMatchObject({
      siteId: IDS.siteOfOwner,
      devices: 1,
      unit: 'W',
      step: '5min',
      values: 'sum',
    });
    const near = `from=${new Date(START - 600_000).toISOString()}&to=${new Date(START + 600_000).toISOString()}`;
    const device = seriesSchema.parse((await get(`/devices/${serial}/series?metric=pvPower&${near}`)).body);
    expect(site.points).toEqual(fiveMinuteAverages(device.points));
    expect(
      (await get(`/sites/${IDS.siteOfOwner}/series?metric=production&from=${from}&to=${to}`, 'installerB'))
        .status,
    ).toBe(404);
    expect((await get(`/sites/${IDS.siteOfOwner}/series?metric=pvPower&from=${from}&to=${to}`)).status).toBe(
      400,
    );
  });

  it('streams each stored reading live, starting with the latest', async () => {
    const live = await openLive(t.origin, serial, tokens.owner);
    expect(live.status).toBe(200);
    expect((await live.next()).values.pvPower).toBe(2200);
    const at = nextTime();
    sendTelemetry(telemetryFrame(codec, hybrid, at, { pvPower: 2345, batterySoc: 52 }));
    const next = await live.next();
    expect(next).toMatchObject({ serial, clockAhead: false, values: { pvPower: 2345 } });
    expect(Date.parse(next.deviceTime)).toBe(Math.floor(at / 1000) * 1000);
    live.close();
    const other = await openLive(t.origin, serial, tokens.installerB);
    expect(other.status).toBe(404);
  });
});

describe('an alarm from a fault code', () => {
  let alarmId = 0;

  it('is raised active by a reading with the code, and mailed to those who opted in', async () => {
    const ownerId = IDS.owner;
    const optIn = await t.call('PUT', `/config/users/${ownerId}`, {
      token: (await t.login('owner')).access_token,
      body: { alarmMail: true },
    });
    expect(optIn.status).toBe(200);
    expect(optIn.body).toMatchObject({ alarmMail: true });
    t.mail.sent.length = 0;
    sendTelemetry(telemetryFrame(codec, hybrid, nextTime(), { faultCode: 3 }));
    await stored();
    const page = alarmPageSchema.parse((await get('/alarms?state=active', 'owner')).body);
    const alarm = page.items.find((a) => a.serial === serial);
    expect(alarm).toMatchObject({
      kind: 'status',
      rule: 'status:faultCode=3',
      severity: 'critical',
      message: 'Inverter over-temperature',
      state: 'active',
      value: 3,
    });
    alarmId = alarm?.id ?? 0;
    await t.server.ctx.mailer.flush();
    expect(t.mail.sent.map((m) => [m.to, m.subject])).toEqual([
      ['owner@homeowner.example', `[Fleet Manager] Alarm (critical) on ${serial}: Inverter over-temperature`],
    ]);
    expect(((await get('/alarms', 'installerB')).body as AlarmPage).items.map((a) => a.serial)).not.toContain(
      serial,
    );
  });

  it('stays one alarm while the code stays, and is acknowledged once, with who, when and the note', async () => {
    sendTelemetry(telemetryFrame(codec, hybrid, nextTime(), { faultCode: 3 }));
    await stored();
    expect(((await get(`/alarms?serial=${serial}`)).body as AlarmPage).total).toBe(1);
    const ack = (who: Who, note = 'Booked a technician for Thursday') =>
      t.call('POST', `/monitoring/alarms/${alarmId}/acknowledge`, {
        token: tokens[who],
        apiKey: null,
        body: { note },
      });
    expect((await ack('installerB')).status).toBe(404);
    expect((await ack('owner', '  ')).status).toBe(400);
    const done = await ack('owner');
    expect(done.status).toBe(200);
    expect(alarmSchema.parse(done.body)).toMatchObject({
      state: 'acknowledged',
      acknowledgedBy: { id: IDS.owner, name: 'Olivia Homeowner' },
      note: 'Booked a technician for Thursday',
    });
    expect((await ack('admin')).status).toBe(409);
    await t.server.ctx.mailer.flush();
    expect(t.mail.sent.map((m) => m.subject)).toContain(
      `[Fleet Manager] Acknowledged (critical) on ${serial}: Inverter over-temperature`,
    );
  });

  it('stays when a reading without the code comes late (older than the newest stored)', async () => {
    const late = lastTime - 3_600_000;
    sendTelemetry(telemetryFrame(codec, hybrid, late, { faultCode: 0 }));
    await stored();
    const raw = await t.server.ctx.db
      .selectFrom('telemetry_raw')
      .select('device_time')
      .where('device_id', '=', deviceId)
      .where('device_time', '=', new Date(Math.floor(late / 1000) * 1000))
      .execute();
    expect(raw).toHaveLength(1);
    const alarm = ((await get(`/alarms?serial=${serial}`)).body as AlarmPage).items[0];
    expect(alarm?.state).toBe('acknowledged');
  });

  it('clears by itself when the code goes back, with every transition stored with its time', async () => {
    sendTelemetry(telemetryFrame(codec, hybrid, nextTime(), { faultCode: 0 }));
    await stored();
    const alarm = ((await get(`/alarms?serial=${serial}`)).body as AlarmPage).items[0];
    expect(alarm?.state).toBe('cleared');
    expect(alarm?.transitions.map((tr) => [tr.state, tr.by?.id ?? null])).toEqual([
      ['active', null],
      ['acknowledged', IDS.owner],
      ['cleared', null],
    ]);
    await t.server.ctx.mailer.flush();
    // One mail per transition: raised, acknowledged, cleared.
    expect(t.mail.sent.filter((m) => m.subject.includes(serial))).toHaveLength(3);
  });
});

describe('an offline alarm', () => {
  it('is raised once for a device silent past the limit, and clears when it reports again', async () => {
    const { alarms } = t.server.ctx.monitoring;
    const later = Date.now() + 120_000;
    // The service watches, looking every 20 s as it does with a limit of a minute.
    for (let at = Date.now(); at < later; at += 20_000) await alarms.sweepOffline(at);
    // Two looks at once (two processes, say; on PostgreSQL two connections): one alarm between them.
    await Promise.all([alarms.sweepOffline(later), alarms.sweepOffline(later)]);
    const open = alarmPageSchema.parse((await get(`/alarms?serial=${serial}&state=open`)).body);
    expect(open.items.map((a) => [a.kind, a.state, a.message])).toEqual([
      ['offline', 'active', 'No telemetry for more than 1 minute'],
    ]);
    sendTelemetry(telemetryFrame(codec, hybrid, nextTime()));
    await stored();
    expect(((await get(`/alarms?serial=${serial}&state=open`)).body as AlarmPage).total).toBe(0);
  });
});

describe('the overview', () => {
  it("counts the caller's devices and sites, problems first", async () => {
    const overview = overviewSchema.parse((await get('/overview', 'owner')).body);
    expect(overview.devices.total).toBe(6);
    expect(overview.devices.online).toBe(1);
    expect(overview.devices.offline).toBe(5);
    expect(overview.sitesTotal).toBe(3);
    expect(overview.sites.map((s) => s.id).sort()).toEqual([1, 2, 3]);
    const other = overviewSchema.parse((await get('/overview', 'installerB')).body);
    expect(other.sites.map((s) => s.id)).not.toContain(IDS.siteOfOwner);
  });
});
