import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { DEVICE_CLOSE } from '../../contracts/service-comms.ts';
import {
  SocketDevice,
  type SocketDeviceOptions,
  untilNextSecond,
} from '../../src/device-sim/online/socket-device.ts';

/**
 * The device side of the socket against a bare WebSocket endpoint standing in for the service, so
 * that a test can drop connections and refuse hellos at will (the service itself is tested end to
 * end in tests/server/service-comms.test.ts).
 */
const answerer = {
  request: (frame: Uint8Array) => Uint8Array.from([(frame[0] ?? 0) | 0x80]),
  connect() {},
  disconnect() {},
};

/** A device that sends telemetry: each reading's frame is its number (1, 2, 3, …). */
function measuring() {
  let n = 0;
  return { ...answerer, liveValuesFrame: () => Uint8Array.from([0x83, ++n]) };
}

let endpoint: WebSocketServer | undefined;
let device: SocketDevice | undefined;
afterEach(async () => {
  await device?.stop();
  await new Promise((resolve) => endpoint?.close(resolve));
});

async function service(onHello: (socket: WebSocket, hello: Record<string, unknown>) => void) {
  const hellos: Record<string, unknown>[] = [];
  endpoint = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  endpoint.on('connection', (socket) =>
    socket.once('message', (raw) => {
      const hello = JSON.parse(raw.toString()) as Record<string, unknown>;
      hellos.push(hello);
      onHello(socket, hello);
    }),
  );
  await new Promise((resolve) => endpoint?.once('listening', resolve));
  const url = `ws://127.0.0.1:${(endpoint.address() as AddressInfo).port}`;
  return { url, hellos };
}

const welcome = (socket: WebSocket) =>
  socket.send(JSON.stringify({ type: 'welcome', serialNumber: 'HX5K-24-000133' }));

function start(url: string, options: Partial<SocketDeviceOptions> = {}) {
  device = new SocketDevice({
    url,
    serialNumber: 'HX5K-24-000133',
    modelId: 'HX-5000',
    secret: 's'.repeat(43),
    device: answerer,
    backoff: { firstMs: 20, maxMs: 100 },
    log: () => {},
    ...options,
  });
  const first = device.online();
  device.start();
  return { device, first };
}

describe('a simulated device on the socket', () => {
  it('says hello with its serial, model and secret, and answers commands with the same id', async () => {
    let socket: WebSocket | undefined;
    const { url, hellos } = await service((s) => {
      socket = s;
      welcome(s);
    });
    await start(url).first;
    expect(hellos[0]).toEqual({
      type: 'hello',
      serialNumber: 'HX5K-24-000133',
      modelId: 'HX-5000',
      secret: 's'.repeat(43),
    });
    const answer = new Promise((resolve) =>
      socket?.once('message', (raw) => resolve(JSON.parse(raw.toString()))),
    );
    socket?.send(JSON.stringify({ type: 'command', id: 7, data: [1, 2, 3] }));
    expect(await answer).toEqual({ type: 'answer', id: 7, data: [0x81] });
  });

  it('reconnects and says hello again when the service drops the connection', async () => {
    const { url, hellos } = await service((socket) => {
      welcome(socket);
      // The first connection dies as in a service restart; the second one stays.
      if (hellos.length === 1) setImmediate(() => socket.terminate());
    });
    const { device: online, first } = start(url);
    await first;
    await online.online();
    expect(hellos).toHaveLength(2);
  });

  it('stops trying when the service refuses its secret', async () => {
    const { url, hellos } = await service((socket) => socket.close(DEVICE_CLOSE.wrongSecret, 'wrong secret'));
    const { device: refused, first } = start(url);
    await expect(first).rejects.toThrow('HX5K-24-000133 refused (4401): wrong secret');
    expect(refused.refused).toEqual({ code: DEVICE_CLOSE.wrongSecret, reason: 'wrong secret' });
    expect(hellos).toHaveLength(1);
  });

  it('connects again at once when the service says it is restarting (1012)', async () => {
    const { url, hellos } = await service((socket) => {
      welcome(socket);
      if (hellos.length === 1) socket.close(DEVICE_CLOSE.serviceRestart, 'the service is restarting');
    });
    // A backoff of ten minutes: only "at once" brings the second hello within the test's time.
    const { device: online, first } = start(url, { backoff: { firstMs: 600_000, maxMs: 600_000 } });
    await first;
    await online.online();
    expect(hellos).toHaveLength(2);
  });

  it('counts why its socket closed unasked, by code and reason, and not its own going offline', async () => {
    const { url, hellos } = await service((socket) => {
      welcome(socket);
      if (hellos.length === 1) socket.close(DEVICE_CLOSE.serviceRestart, 'the service is restarting');
      if (hellos.length === 2) setImmediate(() => socket.terminate());
    });
    const { device: online, first } = start(url);
    await first;
    await online.online();
    await online.online();
    expect(hellos).toHaveLength(3);
    await online.stop();
    expect(Object.fromEntries(online.disconnects)).toEqual({
      '1012 the service is restarting': 1,
      '1006': 1,
    });
  });

  it('keeps what the service did not acknowledge and sends it again after a reconnect, oldest first', async () => {
    const received: { connection: number; seq: number; reading: number }[] = [];
    let connections = 0;
    let dropAfter: ((socket: WebSocket) => void) | undefined;
    const { url } = await service((socket) => {
      const connection = ++connections;
      socket.send(JSON.stringify({ type: 'welcome', serialNumber: 'HX5K-24-000133', telemetryIntervalS: 1 }));
      socket.on('message', (raw) => {
        const message = JSON.parse(raw.toString()) as { seq: number; data: number[] };
        received.push({ connection, seq: message.seq, reading: message.data[1] ?? 0 });
        // The first connection acknowledges the first reading only, then dies with the second.
        if (connection === 1 && message.seq === 0) socket.send(JSON.stringify({ type: 'ack', seq: 0 }));
        if (connection === 1 && message.seq === 1) dropAfter?.(socket);
        // The second acknowledges everything it gets.
        if (connection === 2) socket.send(JSON.stringify({ type: 'ack', seq: message.seq }));
      });
    });
    dropAfter = (socket) => socket.terminate();
    const acknowledged: number[] = [];
    await new Promise<void>((resolve) => {
      start(url, {
        device: measuring(),
        onAcknowledged: (readings) => {
          acknowledged.push(...readings.map((r) => r.seq));
          if (acknowledged.includes(2)) resolve();
        },
      });
    });
    // Reading 2 (seq 1) was sent on the dead connection, unacknowledged: sent again first.
    expect(received.filter((r) => r.connection === 1).map((r) => r.seq)).toEqual([0, 1]);
    expect(received.filter((r) => r.connection === 2).map((r) => [r.seq, r.reading])).toEqual(
      expect.arrayContaining([
        [1, 2],
        [2, 3],
      ]),
    );
    expect(received.find((r) => r.connection === 2)?.seq).toBe(1);
    expect(acknowledged.slice(0, 3)).toEqual([0, 1, 2]);
  });
});

describe('the reading clock', () => {
  it('never takes two readings in one whole second, when a one-second timer fires a millisecond early', () => {
    // Readings at 1,000,000.5 s … the timer back 999 ms later is still in the same second.
    expect(untilNextSecond(1_000_000_500, 1_000_000_999)).toBe(1);
    expect(untilNextSecond(1_000_000_000, 1_000_000_999)).toBe(1);
    expect(untilNextSecond(1_000_000_999, 1_000_001_998)).toBe(0);
    expect(untilNextSecond(undefined, 1_000_000_999)).toBe(0);
  });
});
