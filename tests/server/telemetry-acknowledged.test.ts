import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { telemetryCountsSchema } from '../../contracts/monitoring.ts';
import {
  type DeviceAck,
  type DeviceSecret,
  deviceAckSchema,
  TELEMETRY_MAX_PER_S,
} from '../../contracts/service-comms.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import { telemetryMessage } from '../../src/codec/telemetry-message.ts';
import type { Codec } from '../../src/codec/types.ts';
import { readTelemetry, type TelemetrySpec } from '../../src/device-config/telemetry-spec.ts';
import { bundledFleet } from '../../src/device-sim/online/bundled-fleet.ts';
import { SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import type { KeptReading } from '../../src/device-sim/online/telemetry-backlog.ts';
import { TcpLink } from '../tcp-link.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';
import { socketUrl } from './service-comms-devices.ts';
import { bundledConfig, telemetryFrame } from './telemetry-frames.ts';

/**
 * Acknowledged telemetry over the real device socket: each message carries the device's `seq`,
 * and once the batch holding it is stored the service answers `{type: "ack", seq}` with the
 * highest one dealt with; refused frames are acknowledged too (sending them again cannot help),
 * a resend is stored once, and the binary form (a 5-byte header, then the frame) is taken beside
 * JSON. Past 20 messages a second a device's messages are refused as `flood`. And a simulated
 * device whose link is cut for a while keeps taking readings, and sends them once the link is
 * back: each is stored once.
 */
let t: TestServer;
let codec: Codec;
const hybrid = bundledConfig('hybrid5k');
let serial = '';
let deviceId = 0;
let secret = '';
let adminToken = '';
/** Device times handed out: one second apart, ending before now. */
let clock = Date.now() - 3_600_000;
const nextTime = () => {
  clock += 1000;
  return clock;
};

/** A hand-driven device socket: hello, then what the test sends; collects the service's acks. */
async function openDevice(): Promise<{
  socket: WebSocket;
  acks: DeviceAck[];
  ackAtLeast(seq: number): Promise<void>;
  closed: Promise<number>;
}> {
  const socket = new WebSocket(socketUrl(t.origin));
  const acks: DeviceAck[] = [];
  const waiting: { seq: number; resolve: () => void }[] = [];
  const welcomed = new Promise<void>((resolve) => {
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { type?: string };
      if (message.type === 'welcome') resolve();
      const ack = deviceAckSchema.safeParse(message);
      if (!ack.success) return;
      acks.push(ack.data);
      for (const w of waiting.filter((w) => ack.data.seq >= w.seq)) w.resolve();
    });
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'hello', serialNumber: serial, modelId: 'HX-5000', secret }));
  await welcomed;
  return {
    socket,
    acks,
    closed,
    ackAtLeast: (seq) =>
      acks.some((a) => a.seq >= seq)
        ? Promise.resolve()
        : new Promise((resolve) => waiting.push({ seq, resolve })),
  };
}

const json = (seq: number | undefined, data: number[]) =>
  JSON.stringify({ type: 'telemetry', ...(seq === undefined ? {} : { seq }), data });

async function counts(): Promise<Record<string, number>> {
  await t.server.ctx.monitoring.ingest.flush();
  const login = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: 'admin@fleet.example', access_token: adminToken },
  });
  const answer = await t.call('GET', '/monitoring/telemetry/counts', {
    token: (login.body as { access_token: string }).access_token,
    apiKey: null,
  });
  return telemetryCountsSchema.parse(answer.body).days[0]?.counts ?? {};
}

async function storedTimes(): Promise<number[]> {
  const rows = await t.server.ctx.db
    .selectFrom('telemetry_raw')
    .select('device_time')
    .where('device_id', '=', deviceId)
    .orderBy('device_time')
    .execute();
  return rows.map((row) => new Date(row.device_time).getTime());
}

/** A simulated device of its own, through a link that the test can cut. */
let linked: { device: SocketDevice; link: TcpLink; deviceId: number } | undefined;
const taken: KeptReading[] = [];
const acknowledged = new Set<number>();
const listeners = new Set<() => void>();
/** Resolves once `done()` holds, looked at after every reading taken and every ack. */
const until = (done: () => boolean) =>
  new Promise<void>((resolve) => {
    const look = () => {
      if (!done()) return;
      listeners.delete(look);
      resolve();
    };
    listeners.add(look);
    look();
  });
const tell = () => {
  for (const listener of [...listeners]) listener();
};

async function startLinkedDevice(): Promise<NonNullable<typeof linked>> {
  const row = await t.server.ctx.db
    .selectFrom('devices')
    .select(['id', 'serial'])
    .where('model_id', '=', 'HX-5000')
    .where('serial', '<>', serial)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const issued = await t.call('POST', `/config/service-comms/devices/${row.serial}/secret`, {
    token: adminToken,
    apiKey: null,
  });
  const link = await TcpLink.open(Number(new URL(t.origin).port));
  const device = new SocketDevice({
    url: `ws://127.0.0.1:${link.port}/config/service-comms/devices/ws`,
    serialNumber: row.serial,
    modelId: 'HX-5000',
    secret: (issued.body as DeviceSecret).secret,
    device: (await bundledFleet()).device(row.serial),
    backoff: { firstMs: 50, maxMs: 200 },
    log: () => {},
    onReading: (reading) => {
      taken.push(reading);
      tell();
    },
    onAcknowledged: (readings) => {
      for (const reading of readings) acknowledged.add(reading.seq);
      tell();
    },
  });
  const online = device.online();
  device.start();
  await online;
  return { device, link, deviceId: row.id };
}

beforeAll(async () => {
  t = await startTestServer({ TELEMETRY_INTERVAL_S: '1', TELEMETRY_STEP_MERGE_S: '3600' });
  codec = await loadCodec();
  adminToken = (await t.login('admin')).access_token;
  const row = await t.server.ctx.db
    .selectFrom('devices')
    .select(['id', 'serial'])
    .where('site_id', '=', IDS.siteOfOwner)
    .where('model_id', '=', 'HX-5000')
    .executeTakeFirstOrThrow();
  serial = row.serial;
  deviceId = row.id;
  const issued = await t.call('POST', `/config/service-comms/devices/${serial}/secret`, {
    token: adminToken,
    apiKey: null,
  });
  secret = (issued.body as DeviceSecret).secret;
});
afterAll(async () => {
  await linked?.device.stop();
  await linked?.link.close();
  await t.close();
});

describe('acknowledged telemetry', () => {
  it('acknowledges readings once stored, with the highest seq, and stores a resend once', async () => {
    const device = await openDevice();
    const times = [nextTime(), nextTime(), nextTime()];
    times.forEach((at, i) => {
      device.socket.send(json(i + 1, telemetryFrame(codec, hybrid, at)));
    });
    await device.ackAtLeast(3);
    // One ack per batch at most, each the highest stored so far.
    expect(device.acks.at(-1)).toEqual({ type: 'ack', seq: 3 });
    expect(device.acks.map((a) => a.seq)).toEqual([...new Set(device.acks.map((a) => a.seq))].sort());
    expect(await storedTimes()).toEqual(times.map((at) => Math.floor(at / 1000) * 1000));
    device.socket.close();
    await device.closed;

    // After a reconnect the device sends what it kept again: stored once, acknowledged again.
    const again = await openDevice();
    again.socket.send(json(2, telemetryFrame(codec, hybrid, times[1] ?? 0)));
    await again.ackAtLeast(2);
    expect(again.acks).toEqual([{ type: 'ack', seq: 2 }]);
    expect(await storedTimes()).toHaveLength(3);
    expect(await counts()).toMatchObject({ stored: 3, duplicate: 1 });
    again.socket.close();
  });

  it('acknowledges a refused frame too, and never a message without seq', async () => {
    const device = await openDevice();
    const badCrc = telemetryFrame(codec, hybrid, nextTime());
    badCrc[253] = (badCrc[253] ?? 0) ^ 0xff;
    device.socket.send(json(10, badCrc));
    await device.ackAtLeast(10);
    const before = (await storedTimes()).length;
    device.socket.send(json(undefined, telemetryFrame(codec, hybrid, nextTime())));
    device.socket.send(json(11, telemetryFrame(codec, hybrid, nextTime())));
    await device.ackAtLeast(11);
    expect(device.acks.map((a) => a.seq)).toEqual([10, 11]);
    expect(await storedTimes()).toHaveLength(before + 2);
    expect(await counts()).toMatchObject({ bad_crc: 1 });
    device.socket.close();
  });

  it('takes the binary form: a 5-byte header with seq, then the frame', async () => {
    const device = await openDevice();
    const at = nextTime();
    const frame = Uint8Array.from(telemetryFrame(codec, hybrid, at, { pvPower: 2718 }));
    device.socket.send(telemetryMessage(0xfffffffe, frame));
    await device.ackAtLeast(0xfffffffe);
    const stored = await t.server.ctx.db
      .selectFrom('telemetry_raw')
      .select('vals')
      .where('device_id', '=', deviceId)
      .where('device_time', '=', new Date(Math.floor(at / 1000) * 1000))
      .executeTakeFirstOrThrow();
    expect(stored.vals).toMatchObject({ pvPower: 2718 });
    // A kind of binary message the protocol has not (0x01 is telemetry, 0x02 SMP) is refused as
    // malformed, nothing to acknowledge.
    const malformedBefore = (await counts()).malformed ?? 0;
    const other = telemetryMessage(1, frame);
    other[0] = 0x7f;
    device.socket.send(other);
    device.socket.send(
      telemetryMessage(0xffffffff, Uint8Array.from(telemetryFrame(codec, hybrid, nextTime()))),
    );
    await device.ackAtLeast(0xffffffff);
    expect((await counts()).malformed).toBe(malformedBefore + 1);
    device.socket.close();
  });

  it(`takes a burst of ${TELEMETRY_MAX_PER_S}, refuses what is past the pace as flood, and acknowledges all`, async () => {
    const device = await openDevice();
    const storedBefore = (await storedTimes()).length;
    const floodBefore = (await counts()).flood ?? 0;
    const burst = TELEMETRY_MAX_PER_S + 5;
    for (let i = 0; i < burst; i++)
      device.socket.send(json(100 + i, telemetryFrame(codec, hybrid, nextTime())));
    await device.ackAtLeast(100 + burst - 1);
    const stored = (await storedTimes()).length - storedBefore;
    const flood = ((await counts()).flood ?? 0) - floodBefore;
    // A burst of 20 is allowed and the pace refills as the burst arrives (pace.test.ts holds the
    // pace itself to the clock): every message is stored or counted, and all are acknowledged.
    expect(stored + flood).toBe(burst);
    expect(stored).toBeGreaterThanOrEqual(TELEMETRY_MAX_PER_S);
    device.socket.close();
  });

  it('acknowledges a reading whose 5-minute step waits in the process at its batch’s pace', async () => {
    // Readings of a step that has not ended (the next one when this one ends within half a
    // minute), newer than any stored: its first batch merges the step, the later readings'
    // figures wait in the process (an hour here, TELEMETRY_STEP_MERGE_S).
    const step = Math.floor((Date.now() + 30_000) / 300_000) * 300_000;
    const device = await openDevice();
    const send = (seq: number, second: number) =>
      device.socket.send(json(seq, telemetryFrame(codec, hybrid, step + second * 1000, { pvPower: second })));
    const merged = async () =>
      (
        await t.server.ctx.db
          .selectFrom('telemetry_5m')
          .select('readings')
          .where('device_id', '=', deviceId)
          .where('bucket', '=', new Date(step))
          .executeTakeFirstOrThrow()
      ).readings;
    send(1, 1);
    await device.ackAtLeast(1);
    send(2, 2);
    await device.ackAtLeast(2);
    expect(await merged()).toBe(1);
    // Held steps waiting must not hold up the next reading's batch until they are merged.
    send(3, 3);
    await device.ackAtLeast(3);
    expect(await merged()).toBe(1);
    await t.server.ctx.monitoring.ingest.flush();
    expect(await merged()).toBe(3);
    device.socket.close();
  });
});

describe('a device whose link was cut', () => {
  it('sends the readings it took meanwhile once the link is back, and each is stored once', async () => {
    linked = await startLinkedDevice();
    const { device, link, deviceId } = linked;
    await until(() => acknowledged.size >= 2);
    link.cut();
    const before = taken.length;
    await until(() => taken.length >= before + 3);
    // Taken while the link was down: nothing of them reached the service yet.
    const meanwhile = taken.slice(before).map((r) => r.seq);
    expect(meanwhile.some((seq) => acknowledged.has(seq))).toBe(false);
    expect(device.kept).toBeGreaterThanOrEqual(3);
    link.restore();
    await until(() => meanwhile.every((seq) => acknowledged.has(seq)));
    await device.stop();
    await t.server.ctx.monitoring.ingest.flush();
    const rows = await t.server.ctx.db
      .selectFrom('telemetry_raw')
      .select(['device_time'])
      .where('device_id', '=', deviceId)
      .execute();
    // Every reading taken while the link was down is stored; nothing is stored that was not
    // taken, and nothing twice (a reading sent before and after the cut is a duplicate).
    const stored = new Set(rows.map((r) => new Date(r.device_time).getTime()));
    const { catalogue } = t.server.ctx.monitoring;
    const product = catalogue.product('HX-5000');
    if (!product?.spec) throw new Error('the catalogue has no telemetry for the HX-5000');
    const timeOf = (reading: KeptReading) =>
      readTelemetry(catalogue.codec, product.config, product.spec as TelemetrySpec, reading.frame)
        .deviceTime * 1000;
    for (const reading of taken.slice(before, before + 3)) expect(stored.has(timeOf(reading))).toBe(true);
    expect(rows.length).toBe(stored.size);
    expect(rows.length).toBeGreaterThanOrEqual(acknowledged.size);
    expect(rows.length).toBeLessThanOrEqual(taken.length);
  });
});
