import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetChange } from '../../contracts/monitoring.ts';
import { alarmPageSchema } from '../../contracts/monitoring.ts';
import type { DeviceSecret } from '../../contracts/service-comms.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { IDS, startTestServer, type TestServer, type Who } from './harness.ts';
import { type EventStream, openFleet } from './live-stream.ts';
import { rawDevice } from './service-comms-devices.ts';
import { bundledConfig, telemetryFrame } from './telemetry-frames.ts';

/**
 * The fleet stream tells each person which of their sites changed, from what the database's
 * triggers notify: an alarm raised, acknowledged, cleared; a device connected or gone; a device
 * installed. Nobody hears of a site they do not see.
 */
const hybrid = bundledConfig('hybrid5k');
let t: TestServer;
let codec: Codec;
const tokens = {} as Record<Who, string>;
const streams = {} as Record<'installerA' | 'installerB' | 'admin', EventStream<FleetChange>>;
let clock = Date.now();

/** The demo's hybrid inverter alone at a site (server/db/seed.ts): site 1 (installer A's), 100 (B's). */
async function hybridAt(siteId: number) {
  return t.server.ctx.db
    .selectFrom('devices')
    .select(['id', 'serial', 'model_id as modelId'])
    .where('site_id', '=', siteId)
    .where('model_id', '=', 'HX-5000')
    .executeTakeFirstOrThrow();
}

async function report(siteId: number, values: Record<string, number>): Promise<void> {
  const device = await hybridAt(siteId);
  const { ingest } = t.server.ctx.monitoring;
  clock += 1000;
  ingest.accept(device, Uint8Array.from(telemetryFrame(codec, hybrid, clock, values)), clock);
  await ingest.flush();
}

beforeAll(async () => {
  t = await startTestServer();
  codec = await loadCodec();
  const emails = {
    admin: 'admin@fleet.example',
    installerA: 'installer@solarpros.example',
    installerB: 'installer@brightvolt.example',
  } as const;
  for (const who of ['admin', 'installerA', 'installerB'] as const) {
    const config = (await t.login(who)).access_token;
    const login = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: emails[who], access_token: config },
    });
    tokens[who] = (login.body as { access_token: string }).access_token;
    streams[who] = await openFleet(t.origin, tokens[who]);
    expect(streams[who].status).toBe(200);
  }
});
afterAll(async () => {
  for (const stream of Object.values(streams)) stream.close();
  await t.close();
});

describe('the fleet stream', () => {
  it('tells those who see a site that an alarm was raised there, and nobody else', async () => {
    await report(IDS.siteOfOwner, { faultCode: 3 });
    expect(await streams.installerA.next()).toEqual({ sites: [IDS.siteOfOwner] });
    expect(await streams.admin.next()).toEqual({ sites: [IDS.siteOfOwner] });
    // A change at B's site reaches B, and is the first B hears of.
    await report(IDS.siteOfB, { faultCode: 3 });
    expect(await streams.installerB.next()).toEqual({ sites: [IDS.siteOfB] });
    expect(streams.installerB.received).toHaveLength(1);
    expect(await streams.admin.next()).toEqual({ sites: [IDS.siteOfB] });
  });

  it('tells of an acknowledgement and of an alarm clearing', async () => {
    const [alarm] = alarmPageSchema.parse(
      (
        await t.call('GET', `/monitoring/alarms?state=active&siteId=${IDS.siteOfOwner}`, {
          token: tokens.installerA,
          apiKey: null,
        })
      ).body,
    ).items;
    const ack = await t.call('POST', `/monitoring/alarms/${alarm?.id}/acknowledge`, {
      token: tokens.installerA,
      apiKey: null,
      body: { note: 'On it' },
    });
    expect(ack.status).toBe(200);
    expect(await streams.installerA.next()).toEqual({ sites: [IDS.siteOfOwner] });
    await report(IDS.siteOfOwner, { faultCode: 0 });
    expect(await streams.installerA.next()).toEqual({ sites: [IDS.siteOfOwner] });
    // Nothing of A's site reached B.
    expect(streams.installerB.received.flatMap((change) => change.sites)).not.toContain(IDS.siteOfOwner);
  });

  it('tells of a device connecting and going, and of a device installed', async () => {
    const device = await hybridAt(IDS.siteOfB);
    const secret = await t.call('POST', `/config/service-comms/devices/${device.serial}/secret`, {
      token: (await t.login('admin')).access_token,
      apiKey: null,
    });
    const socket = rawDevice(t.origin, {
      type: 'hello',
      serialNumber: device.serial,
      modelId: device.modelId,
      secret: (secret.body as DeviceSecret).secret,
    });
    await socket.welcomed;
    expect(await streams.installerB.next()).toEqual({ sites: [IDS.siteOfB] });
    socket.socket.close();
    expect(await streams.installerB.next()).toEqual({ sites: [IDS.siteOfB] });
    const installed = await t.call('POST', `/config/fleet/sites/${IDS.siteOfB}/installs`, {
      token: (await t.login('installerB')).access_token,
      body: { modelId: 'HX-5000', serial: 'HX5K-26-000901' },
    });
    expect(installed.status).toBe(201);
    expect(await streams.installerB.next()).toEqual({ sites: [IDS.siteOfB] });
    expect(streams.installerA.received.flatMap((change) => change.sites)).not.toContain(IDS.siteOfB);
  });

  it('holds at most ten streams open for one person on one process', async () => {
    const more = await Promise.all(Array.from({ length: 10 }, () => openFleet(t.origin, tokens.installerB)));
    expect(more.map((s) => s.status).sort()).toEqual([...Array(9).fill(200), 429]);
    for (const stream of more) stream.close();
  });
});
