import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Alarm, alarmPageSchema } from '../../contracts/monitoring.ts';
import type { DeviceSecret } from '../../contracts/service-comms.ts';
import { AlarmService } from '../../server/monitoring/alarms/alarm-store.ts';
import { presenceFresh } from '../../server/service-comms/presence.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { IDS, startTestServer, type TestServer, type Who } from './harness.ts';
import { rawDevice } from './service-comms-devices.ts';
import { bundledConfig, telemetryFrame } from './telemetry-frames.ts';

/**
 * Silence raises alarms from what the database holds, not from what one process saw: a device
 * installed and never heard from raises `never-connected`, one heard from before the service
 * (re)started raises `offline`, a site whose every device is silent raises its own alarm; an
 * outage of the whole service gives devices the full limit to report again. The sweep runs on the
 * test's clock, looking every 20 s as the service does with a limit of 60 s; two alarm services
 * on one database stand for two processes.
 */
const LIMIT_S = 60;
const hybrid = bundledConfig('hybrid5k');

let t: TestServer;
let codec: Codec;
const tokens = {} as Record<Who, string>;
let clock = Date.now() - 3_600_000;
/** A second process's alarm service on the same database. */
let other: AlarmService;

/** The service watches until `until`, looking every 20 s, alternately from either process. */
async function watchUntil(until: number): Promise<void> {
  let turn = 0;
  while (clock < until) {
    clock = Math.min(until, clock + 20_000);
    turn += 1;
    await (turn % 2 ? t.server.ctx.monitoring.alarms : other).sweepOffline(clock);
  }
}

async function alarms(query: string, who: Who = 'admin'): Promise<Alarm[]> {
  const answer = await t.call('GET', `/monitoring/alarms?pageSize=100&${query}`, {
    token: tokens[who],
    apiKey: null,
  });
  expect(answer.status).toBe(200);
  return alarmPageSchema.parse(answer.body).items;
}

const open = async (query: string, who: Who = 'admin') =>
  (await alarms(`state=open&${query}`, who)).map((a) => a.rule);

/** A reading of a hybrid inverter, received at `at` (the test's clock). */
async function report(device: { id: number; serial: string }, at: number): Promise<void> {
  const { ingest } = t.server.ctx.monitoring;
  ingest.accept({ ...device, modelId: 'HX-5000' }, Uint8Array.from(telemetryFrame(codec, hybrid, at)), at);
  await ingest.flush();
}

/** Demo sites (server/db/seed.ts): site 3 has three devices, a hybrid inverter among them; 1 and 4 one each. */
const SITE = { three: 3, one: 1, four: 4 };

async function devicesAt(siteId: number) {
  return t.server.ctx.db
    .selectFrom('devices')
    .select(['id', 'serial', 'model_id'])
    .where('site_id', '=', siteId)
    .orderBy('id')
    .execute();
}

async function hybridAt(siteId: number) {
  const device = (await devicesAt(siteId)).find((d) => d.model_id === 'HX-5000');
  if (!device) throw new Error(`no hybrid inverter at site ${siteId}`);
  return device;
}

beforeAll(async () => {
  t = await startTestServer({ ALARM_OFFLINE_AFTER_S: String(LIMIT_S) });
  codec = await loadCodec();
  const { ctx } = t.server;
  other = new AlarmService({
    db: ctx.db,
    mailer: ctx.mailer,
    catalogue: ctx.monitoring.catalogue,
    offlineAfterS: LIMIT_S,
    online: () => presenceFresh(30),
  });
  for (const who of ['admin', 'installerA', 'installerB'] as const) {
    const config = (await t.login(who)).access_token;
    const email = {
      admin: 'admin@fleet.example',
      installerA: 'installer@solarpros.example',
      installerB: 'installer@brightvolt.example',
      owner: '',
    }[who];
    const login = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: email, access_token: config },
    });
    tokens[who] = (login.body as { access_token: string }).access_token;
  }
  await ctx.db.updateTable('users').set({ alarm_mail: true }).where('id', '=', IDS.installerA).execute();
});
afterAll(() => t.close());

describe('silence', () => {
  it('raises never-connected once the limit passed since the install, and a site alarm when every device is silent', async () => {
    const devices = await devicesAt(SITE.three);
    expect(devices.length).toBe(3);
    // The service starts watching now. These were installed a minute into the watch; every other
    // demo device weeks ago, and was never heard from.
    const start = clock;
    await t.server.ctx.db
      .updateTable('devices')
      .set({ installed_at: new Date(start + 60_000) })
      .where('site_id', '=', SITE.three)
      .execute();
    await watchUntil(start + 100_000);
    expect(await open(`siteId=${SITE.three}`)).toEqual([]);
    // Weeks-old devices never heard from are alarmed once the watch is a limit old, as are their sites.
    const elsewhere = await open(`siteId=${IDS.siteOfB}`);
    expect(elsewhere).toContain('never-connected');
    expect(elsewhere).toContain('site-offline');

    await watchUntil(start + 140_000);
    const raised = await alarms(`state=open&siteId=${SITE.three}`);
    expect(
      raised
        .filter((a) => a.rule === 'never-connected')
        .map((a) => a.serial)
        .sort(),
    ).toEqual(devices.map((d) => d.serial).sort());
    expect(raised.find((a) => a.rule === 'never-connected')?.message).toBe(
      'Never connected: nothing heard in more than 1 minute since it was installed',
    );
    const site = raised.find((a) => a.rule === 'site-offline');
    expect(site).toMatchObject({ serial: null, deviceName: null, modelId: null, siteId: SITE.three });
    expect(site?.severity).toBe('critical');
    // Only those who see the site see its alarm.
    expect(await open(`siteId=${SITE.three}`, 'installerA')).toContain('site-offline');
    expect(await open(`siteId=${SITE.three}`, 'installerB')).toEqual([]);
    await t.server.ctx.mailer.flush();
    expect(t.mail.sent.map((m) => m.subject)).toContainEqual(
      expect.stringMatching(
        /^\[Fleet Manager\] Alarm \(critical\) on site “.+”: Every device at this site is offline/,
      ),
    );
  });

  it('clears never-connected and the site alarm when a device reports', async () => {
    const first = await hybridAt(SITE.three);
    clock += 1000;
    await report(first, clock);
    const rules = (await alarms(`siteId=${SITE.three}`)).map((a) => [a.rule, a.serial, a.state]);
    expect(rules).toContainEqual(['never-connected', first.serial, 'cleared']);
    expect(rules).toContainEqual(['site-offline', null, 'cleared']);
    // The others at the site are still silent; the site is not.
    expect(await open(`siteId=${SITE.three}`)).not.toContain('site-offline');
    await watchUntil(clock + 20_000);
    expect(await open(`siteId=${SITE.three}`)).not.toContain('site-offline');
  });

  it('raises offline for a device last heard before the service watched, once the limit passed while watching', async () => {
    const device = await hybridAt(SITE.one);
    // Last heard two hours ago, before the service started watching: silent since the watch began,
    // more than the limit ago.
    await report(device, clock - 7_200_000);
    await watchUntil(clock + 20_000);
    expect(await open(`serial=${device.serial}`)).toEqual(['offline']);
  });

  it('gives every device the full limit again after an outage of the whole service', async () => {
    const quiet = await hybridAt(SITE.four);
    await report(quiet, clock);
    // Nobody looks for three minutes (every process was down), then the service comes back.
    clock += 180_000;
    await t.server.ctx.monitoring.alarms.sweepOffline(clock);
    expect(await open(`serial=${quiet.serial}`)).toEqual([]);
    await watchUntil(clock + (LIMIT_S - 5) * 1000);
    expect(await open(`serial=${quiet.serial}`)).toEqual([]);
    await watchUntil(clock + 20_000);
    expect(await open(`serial=${quiet.serial}`)).toEqual(['offline']);
  });

  it('does not call a never-heard device that is connected now never connected', async () => {
    const [device] = await devicesAt(IDS.siteOfB + 1);
    if (!device) throw new Error('no device at site 101');
    const secret = await t.call('POST', `/config/service-comms/devices/${device.serial}/secret`, {
      token: (await t.login('admin')).access_token,
      apiKey: null,
    });
    const socket = rawDevice(t.origin, {
      type: 'hello',
      serialNumber: device.serial,
      modelId: device.model_id,
      secret: (secret.body as DeviceSecret).secret,
    });
    await socket.welcomed;
    // Its never-connected alarm (raised weeks after its install) clears: it is connected now.
    await watchUntil(clock + 20_000);
    expect(await open(`serial=${device.serial}`)).toEqual([]);
    socket.socket.close();
    await socket.closed;
    await expect.poll(() => t.server.ctx.comms.presence.holderOf(device.serial)).toBeUndefined();
    await watchUntil(clock + 20_000);
    expect(await open(`serial=${device.serial}`)).toEqual(['never-connected']);
  });
});
