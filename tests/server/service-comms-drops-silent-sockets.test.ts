import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { DeviceSecret, OnlineDevices } from '../../contracts/service-comms.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';
import { socketUrl } from './service-comms-devices.ts';

/**
 * A device whose connection died without a close (power cut, lost network) answers no pings: the
 * service must notice, drop the socket and stop listing the device as online.
 */
let t: TestServer;
let token: string;
let device: { serialNumber: string; modelId: string; secret: string };

beforeAll(async () => {
  t = await startTestServer({ SERVICE_COMMS_PING_MS: '1000' });
  token = (await t.login('admin')).access_token;
  const row = await t.server.ctx.db
    .selectFrom('devices')
    .select(['serial', 'model_id'])
    .where('site_id', '=', IDS.siteOfB)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const issued = await t.call('POST', `/config/service-comms/devices/${row.serial}/secret`, {
    token,
    apiKey: null,
  });
  device = { serialNumber: row.serial, modelId: row.model_id, secret: (issued.body as DeviceSecret).secret };
});
afterAll(() => t.close());

describe('a device socket that stops answering pings', () => {
  it('is dropped, and the device is no longer online', async () => {
    // autoPong off: the socket stays open but never answers a ping, like a dead link.
    const socket = new WebSocket(socketUrl(t.origin), { autoPong: false });
    const welcomed = new Promise((resolve) => socket.once('message', resolve));
    socket.once('open', () => socket.send(JSON.stringify({ type: 'hello', ...device })));
    await welcomed;
    const online = async () =>
      (
        (await t.call('GET', '/config/service-comms/devices/online', { token, apiKey: null }))
          .body as OnlineDevices
      ).devices.map((d) => d.serialNumber);
    expect(await online()).toContain(device.serialNumber);
    const closed = await new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    // Terminated without a closing handshake.
    expect(closed).toBe(1006);
    await expect.poll(online).not.toContain(device.serialNumber);
  });
});
