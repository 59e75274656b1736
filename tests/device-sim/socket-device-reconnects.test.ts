import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { DEVICE_CLOSE } from '../../contracts/service-comms.ts';
import { SocketDevice } from '../../src/device-sim/online/socket-device.ts';

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

function start(url: string) {
  device = new SocketDevice({
    url,
    serialNumber: 'HX5K-24-000133',
    modelId: 'HX-5000',
    secret: 's'.repeat(43),
    device: answerer,
    backoff: { firstMs: 20, maxMs: 100 },
    log: () => {},
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
});
