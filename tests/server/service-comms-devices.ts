import WebSocket from 'ws';
import { bundledFleet } from '../../src/device-sim/online/bundled-fleet.ts';
import { type SmpAnswerer, SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import type { SimulatorFleet } from '../../src/device-sim/simulator-fleet.ts';

/** The device socket URL of a server listening at `origin` (`http://127.0.0.1:port`). */
export function socketUrl(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}/config/service-comms/devices/ws`;
}

let fleet: Promise<SimulatorFleet> | undefined;

/** A simulated device of the bundled catalogue, online over the socket; resolves once welcomed. */
export async function connectDevice(
  origin: string,
  device: {
    serialNumber: string;
    modelId: string;
    secret: string;
    firmwareVersion?: string;
    /** Firmware updates over the socket (the device's SMP side). */
    smp?: SmpAnswerer;
    restartMs?: number;
    /** Headers of the upgrade request: an address of its own (`x-forwarded-for`) for one of many devices. */
    headers?: Record<string, string>;
  },
): Promise<SocketDevice> {
  fleet ??= bundledFleet();
  const simulated = (await fleet).device(device.serialNumber);
  const online = new SocketDevice({
    url: socketUrl(origin),
    ...device,
    device: simulated,
    backoff: { firstMs: 50, maxMs: 200 },
    log: () => {},
  });
  const welcomed = online.online();
  online.start();
  await welcomed;
  return online;
}

/** A hand-driven socket: says `hello`, then answers nothing; resolves with how the service reacted. */
export function rawDevice(origin: string, hello: unknown, headers: Record<string, string> = {}) {
  const socket = new WebSocket(socketUrl(origin), { headers });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const welcomed = new Promise<unknown>((resolve) =>
    socket.once('message', (raw) => resolve(JSON.parse(raw.toString()))),
  );
  const commands: unknown[] = [];
  socket.on('message', (raw) => commands.push(JSON.parse(raw.toString())));
  socket.once('open', () => socket.send(typeof hello === 'string' ? hello : JSON.stringify(hello)));
  return { socket, closed, welcomed, commands };
}
