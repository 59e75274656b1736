import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSchema } from '../../contracts/catalogue.ts';
import {
  type CommandLog,
  commandLogSchema,
  DEVICE_CLOSE,
  type DeviceSecret,
  deviceAnswerSchema,
  type OnlineDevices,
  STAFF_SENDER,
} from '../../contracts/service-comms.ts';
import { REQUEST_LIMITS } from '../../server/limits/request-limits.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import type { SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';
import { pinInFreshWindow } from './limit-window.ts';
import { connectDevice, rawDevice } from './service-comms-devices.ts';

let t: TestServer;
let codec: Codec;
const tokens: Record<'admin' | 'installerA' | 'installerB' | 'owner', string> = {
  admin: '',
  installerA: '',
  installerB: '',
  owner: '',
};
interface Registered {
  serialNumber: string;
  modelId: string;
  secret: string;
}
/** A device on installer A's site (and the owner's), and one nobody connects. */
let ownersDevice: Registered;
let quietDevice: Registered;
let online: SocketDevice;

async function issueSecret(serialNumber: string, token = tokens.admin) {
  return t.call('POST', `/config/service-comms/devices/${serialNumber}/secret`, { token, apiKey: null });
}

async function registered(siteId: number, index: number): Promise<Registered> {
  const devices = await t.server.ctx.db
    .selectFrom('devices')
    .select(['serial', 'model_id'])
    .where('site_id', '=', siteId)
    .orderBy('id')
    .execute();
  const device = devices[index];
  if (!device) throw new Error(`site ${siteId} has no device ${index}`);
  const answer = await issueSecret(device.serial);
  expect(answer.status).toBe(201);
  return {
    serialNumber: device.serial,
    modelId: device.model_id,
    secret: (answer.body as DeviceSecret).secret,
  };
}

const command = (serialNumber: string, data: number[], token = tokens.admin) =>
  t.call('POST', '/config/service-comms/command', { token, apiKey: null, body: { serialNumber, data } });

beforeAll(async () => {
  t = await startTestServer({ SERVICE_COMMS_TIMEOUT_MS: '1500' });
  codec = await loadCodec();
  for (const who of Object.keys(tokens) as (keyof typeof tokens)[])
    tokens[who] = (await t.login(who)).access_token;
  ownersDevice = await registered(IDS.siteOfOwner, 0);
  quietDevice = await registered(IDS.siteOfA, 0);
  online = await connectDevice(t.origin, ownersDevice);
});
afterAll(async () => {
  await online?.stop();
  await t.close();
});

describe('a command to an online device', () => {
  it("answers the device's answer frame, without an api-key", async () => {
    const answer = await command(ownersDevice.serialNumber, [...codec.buildFrame(0x01, 255)]);
    expect(answer.status).toBe(200);
    const body = deviceAnswerSchema.parse(answer.body);
    expect(body.serialNumber).toBe(ownersDevice.serialNumber);
    expect(body.data).toHaveLength(255);
    // Read configuration is answered 0x81 with a frame whose CRC checks out.
    expect(body.data[0]).toBe(0x81);
    expect(() => codec.verifyFrame(Uint8Array.from(body.data), 255)).not.toThrow();
  });

  it('is answered for an installer with the installer role on the site', async () => {
    const answer = await command(
      ownersDevice.serialNumber,
      [...codec.buildFrame(0x03, 255)],
      tokens.installerA,
    );
    expect(answer.status).toBe(200);
    expect(deviceAnswerSchema.parse(answer.body).data[0]).toBe(0x83);
  });

  it("passes the device's own error answer back as it is (a bad CRC)", async () => {
    const frame = [...codec.buildFrame(0x01, 255)];
    frame[254] = (frame[254] ?? 0) ^ 0xff;
    const answer = await command(ownersDevice.serialNumber, frame);
    expect(answer.status).toBe(200);
    expect(deviceAnswerSchema.parse(answer.body).data.slice(0, 3)).toEqual([0xee, 0x01, 0x01]);
  });
});

describe('raw frames and catalogue commands', () => {
  const catalogueOf = (modelId: string) => {
    const lists = ['public/devices-list.json', 'public/devices-list-e1.json'].map((file) =>
      catalogueSchema.parse(JSON.parse(readFileSync(file, 'utf8'))),
    );
    const entry = lists.map((list) => list.devicesList[modelId]).find(Boolean);
    if (!entry) throw new Error(`no catalogue entry for ${modelId}`);
    return entry;
  };

  it("lets an installer send the model's own catalogue commands", async () => {
    const entry = catalogueOf(ownersDevice.modelId);
    const extra = entry.commands.find((c) => c.opCode > 0x04);
    if (!extra) throw new Error('the model has no command of its own');
    const answer = await command(
      ownersDevice.serialNumber,
      [...codec.buildFrame(extra.opCode, entry.write.bufferSize)],
      tokens.installerA,
    );
    expect(answer.status).toBe(200);
    // Delivered: the device answers it (here: locked until a password check on its link).
    expect(deviceAnswerSchema.parse(answer.body).data.slice(0, 3)).toEqual([0xee, 0x05, extra.opCode]);
  });

  it.each([
    ['an opcode outside the catalogue', () => [...codec.buildFrame(0x7f, 255)]],
    ['a catalogue opcode in a short frame', () => [0x01]],
    ['a catalogue opcode in a frame longer than the write size', () => [...codec.buildFrame(0x01, 255), 0]],
  ])('refuses an installer a raw frame (%s) with 403: raw frames are for company staff', async (_, frame) => {
    const answer = await command(ownersDevice.serialNumber, frame(), tokens.installerA);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'raw_frames_staff_only' });
  });

  it('lets company staff send any frame', async () => {
    const answer = await command(ownersDevice.serialNumber, [...codec.buildFrame(0x7f, 255)]);
    expect(answer.status).toBe(200);
    // The device itself refuses an opcode it does not know.
    expect(deviceAnswerSchema.parse(answer.body).data.slice(0, 2)).toEqual([0xee, 0x03]);
  });
});

describe('who may send commands', () => {
  it('answers 401 without a Bearer token', async () => {
    const answer = await t.call('POST', '/config/service-comms/command', {
      apiKey: null,
      body: { serialNumber: ownersDevice.serialNumber, data: [1] },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: 'token_missing' });
  });

  it('answers 403 to the site owner, whose role does not allow commands', async () => {
    const answer = await command(ownersDevice.serialNumber, [1], tokens.owner);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'service_comms_forbidden' });
  });

  it('answers 404 to an installer who cannot see the site', async () => {
    const answer = await command(ownersDevice.serialNumber, [1], tokens.installerB);
    expect(answer.status).toBe(404);
  });

  it('answers 404 for an unknown serial number', async () => {
    const answer = await command('HX5K-24-999999', [1]);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'not_found', message: 'Device not found' });
  });
});

describe('malformed commands', () => {
  it.each([
    [{ serialNumber: 'HX5K-24-000133', data: [256] }, 'data.0'],
    [{ serialNumber: 'HX5K-24-000133', data: [] }, 'data'],
    [{ serialNumber: 'HX5K-24-000133', data: Array(513).fill(0) }, 'data'],
    [{ serialNumber: 'not a serial', data: [1] }, 'serialNumber'],
    [{ data: [1] }, 'serialNumber'],
  ])('answers 400 naming the field for %j', async (body, field) => {
    const answer = await t.call('POST', '/config/service-comms/command', {
      token: tokens.admin,
      apiKey: null,
      body,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_input', field });
  });
});

describe('offline and silent devices', () => {
  it('answers 409 device_offline for a device that is not connected', async () => {
    const answer = await command(quietDevice.serialNumber, [...codec.buildFrame(0x01, 255)]);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'device_offline' });
  });

  it('answers 504 device_timeout when the device does not answer in time', async () => {
    const silent = rawDevice(t.origin, { type: 'hello', ...quietDevice });
    expect(await silent.welcomed).toEqual({
      type: 'welcome',
      serialNumber: quietDevice.serialNumber,
      telemetryIntervalS: 10,
    });
    const answer = await command(quietDevice.serialNumber, [...codec.buildFrame(0x01, 255)]);
    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({ code: 'device_timeout' });
    // The device did get the frame: it just never answered.
    expect(silent.commands).toContainEqual(expect.objectContaining({ type: 'command' }));
    silent.socket.close();
    await silent.closed;
  });

  it('goes offline when its socket closes', async () => {
    const again = await connectDevice(t.origin, quietDevice);
    const seen = async () =>
      (
        (await t.call('GET', '/config/service-comms/devices/online', { token: tokens.admin, apiKey: null }))
          .body as OnlineDevices
      ).devices.map((d) => d.serialNumber);
    expect(await seen()).toContain(quietDevice.serialNumber);
    await again.stop();
    await expect.poll(seen).not.toContain(quietDevice.serialNumber);
    expect((await command(quietDevice.serialNumber, [1])).status).toBe(409);
  });
});

describe('a device held by a server process that died', () => {
  it('counts as offline once that process stopped refreshing its presence', async () => {
    const row = await t.server.ctx.db
      .selectFrom('devices')
      .select(['id', 'serial', 'model_id'])
      .where('site_id', '=', IDS.siteOfA)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // What a killed process leaves behind: its row, last refreshed an hour ago.
    await t.server.ctx.db
      .insertInto('device_presence')
      .values({
        serial: row.serial,
        device_id: row.id,
        model_id: row.model_id,
        holder: 'a-process-that-died',
        connected_at: new Date(Date.now() - 7_200_000),
        seen_at: new Date(Date.now() - 3_600_000),
      })
      .execute();
    const answer = await command(row.serial, [...codec.buildFrame(0x01, 255)]);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'device_offline' });
    const listed = await t.call('GET', '/config/service-comms/devices/online', {
      token: tokens.admin,
      apiKey: null,
    });
    expect((listed.body as OnlineDevices).devices.map((d) => d.serialNumber)).not.toContain(row.serial);
  });
});

describe('the device socket', () => {
  it('refuses a wrong secret and an unknown serial number alike, so it tells no one which serials exist', async () => {
    const wrong = rawDevice(t.origin, { type: 'hello', ...ownersDevice, secret: 'x'.repeat(43) });
    const unknown = rawDevice(t.origin, {
      type: 'hello',
      serialNumber: 'HX5K-24-999999',
      modelId: 'HX-5000',
      secret: 'x'.repeat(43),
    });
    const refused = { code: DEVICE_CLOSE.wrongSecret, reason: 'unknown serial number or wrong secret' };
    expect(await wrong.closed).toEqual(refused);
    expect(await unknown.closed).toEqual(refused);
  });

  it('refuses hellos past the limit per address, before it checks a secret', async () => {
    const from = { 'x-forwarded-for': '192.0.2.77' };
    const hello = {
      type: 'hello',
      serialNumber: 'HX5K-24-999999',
      modelId: 'HX-5000',
      secret: 'x'.repeat(43),
    };
    const limit = REQUEST_LIMITS.helloPerAddress.limit;
    pinInFreshWindow(t.clock, REQUEST_LIMITS.helloPerAddress.windowSeconds);
    const within = await Promise.all(
      Array.from({ length: limit }, () => rawDevice(t.origin, hello, from).closed),
    );
    expect(within.every((closed) => closed.code === DEVICE_CLOSE.wrongSecret)).toBe(true);
    // The next one, even with the right secret, is refused for the address; another address is not.
    expect((await rawDevice(t.origin, { type: 'hello', ...ownersDevice }, from).closed).code).toBe(
      DEVICE_CLOSE.tooManyHellos,
    );
    expect((await rawDevice(t.origin, hello, { 'x-forwarded-for': '192.0.2.78' }).closed).code).toBe(
      DEVICE_CLOSE.wrongSecret,
    );
  });

  it('refuses a first message that is not a hello, naming what is wrong', async () => {
    const device = rawDevice(t.origin, { type: 'hello', serialNumber: ownersDevice.serialNumber });
    const closed = await device.closed;
    expect(closed.code).toBe(DEVICE_CLOSE.badHello);
    expect(closed.reason).toMatch(/^the first message must be a hello: modelId/);
  });

  it('refuses the old secret once a new one is issued, closing its socket; only an admin issues one', async () => {
    expect((await issueSecret(quietDevice.serialNumber, tokens.installerA)).status).toBe(403);
    const old = quietDevice.secret;
    const connected = rawDevice(t.origin, { type: 'hello', ...quietDevice });
    await connected.welcomed;
    quietDevice = await registered(IDS.siteOfA, 0);
    // The socket opened with the old secret is closed too.
    expect(await connected.closed).toEqual({
      code: DEVICE_CLOSE.wrongSecret,
      reason: 'the secret was replaced',
    });
    const device = rawDevice(t.origin, { type: 'hello', ...quietDevice, secret: old });
    expect((await device.closed).code).toBe(DEVICE_CLOSE.wrongSecret);
  });
});

describe('online devices', () => {
  const onlineFor = async (token: string) => {
    const answer = await t.call('GET', '/config/service-comms/devices/online', { token, apiKey: null });
    expect(answer.status).toBe(200);
    return (answer.body as OnlineDevices).devices.map((d) => d.serialNumber);
  };

  it('lists a connected device to those who see its site, and to no one else', async () => {
    expect(await onlineFor(tokens.admin)).toContain(ownersDevice.serialNumber);
    expect(await onlineFor(tokens.installerA)).toContain(ownersDevice.serialNumber);
    expect(await onlineFor(tokens.owner)).toContain(ownersDevice.serialNumber);
    expect(await onlineFor(tokens.installerB)).not.toContain(ownersDevice.serialNumber);
  });
});

describe("a device's command log", () => {
  it('keeps every command and answer with who sent it, newest first', async () => {
    await command(ownersDevice.serialNumber, [...codec.buildFrame(0x01, 255)], tokens.installerA);
    const answer = await t.call('GET', `/config/service-comms/devices/${ownersDevice.serialNumber}/log`, {
      token: tokens.admin,
      apiKey: null,
    });
    expect(answer.status).toBe(200);
    const log: CommandLog = commandLogSchema.parse(answer.body);
    const newest = log.entries[0];
    expect(newest).toMatchObject({
      serialNumber: ownersDevice.serialNumber,
      userId: IDS.installerA,
      userEmail: 'installer@solarpros.example',
      outcome: 'answered',
    });
    expect(newest?.command[0]).toBe(0x01);
    expect(newest?.answer?.[0]).toBe(0x81);
    const ids = log.entries.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // The refused callers (owner: 403, unknown device) left nothing in it.
    expect(log.entries.every((e) => e.userId !== IDS.owner)).toBe(true);
  });

  it('shows a reader who is not company staff no staff e-mail, only that staff sent it', async () => {
    await command(ownersDevice.serialNumber, [...codec.buildFrame(0x01, 255)], tokens.admin);
    const path = `/config/service-comms/devices/${ownersDevice.serialNumber}/log`;
    const asInstaller = commandLogSchema.parse(
      (await t.call('GET', path, { token: tokens.installerA, apiKey: null })).body,
    );
    const asStaff = commandLogSchema.parse(
      (await t.call('GET', path, { token: tokens.admin, apiKey: null })).body,
    );
    expect(asStaff.entries[0]).toMatchObject({ userId: IDS.admin, userEmail: 'admin@fleet.example' });
    expect(asInstaller.entries[0]).toMatchObject({ userId: 0, userEmail: STAFF_SENDER });
    expect(JSON.stringify(asInstaller)).not.toContain('@fleet.example');
    // Senders who are not staff keep their address for everyone.
    expect(asInstaller.entries.some((e) => e.userEmail === 'installer@solarpros.example')).toBe(true);
  });

  it('records offline and time-out outcomes', async () => {
    const answer = await t.call('GET', `/config/service-comms/devices/${quietDevice.serialNumber}/log`, {
      token: tokens.installerA,
      apiKey: null,
    });
    const outcomes = commandLogSchema.parse(answer.body).entries.map((e) => e.outcome);
    expect(outcomes).toContain('device_offline');
    expect(outcomes).toContain('device_timeout');
    expect(
      commandLogSchema.parse(answer.body).entries.find((e) => e.outcome === 'device_timeout')?.answer,
    ).toBeNull();
  });

  it('answers 403 to the site owner and 400 for a bad limit', async () => {
    const path = `/config/service-comms/devices/${ownersDevice.serialNumber}/log`;
    expect((await t.call('GET', path, { token: tokens.owner, apiKey: null })).status).toBe(403);
    const bad = await t.call('GET', `${path}?limit=0`, { token: tokens.admin, apiKey: null });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'limit' });
  });
});
