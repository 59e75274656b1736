import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise, waitFor } from 'xstate';
import { remoteDebuggerMachine } from '../../machines/remote-debugger/debugger-machine.ts';
import type { SendInput } from '../../machines/remote-debugger/debugger-types.ts';
import { type SimulatedLink, SimulatedTransport } from '../../src/ble/simulated-transport.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { createDebuggerActors } from '../../src/features/remote-debugger/debugger-actors.ts';
import { signIn, startRuntime } from '../api/runtime-fixture.ts';
import { type Answer, type Handler, startTestServer, type TestServer } from '../api/test-server.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';

const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000') as DeviceProduct;
const SERIAL = 'HX5K-24-000123';
const DEVICE = { serialNumber: SERIAL, modelId: 'HX-5000', name: 'Roof', siteName: 'Depot' };
let codec: Codec;
let server: TestServer | undefined;

beforeAll(async () => {
  codec = await loadCodec();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tokens = { access_token: 'config-access-1', refresh_token: 'config-refresh-1' };

/** The app's runtime signed in against an HTTP server that answers the debugger's calls as given. */
async function remoteConsole(command: Handler, online: Answer) {
  server = await startTestServer({
    'POST /config/auth/v2/login': () => ({ status: 200, body: tokens }),
    'POST /monitoring/auth/v2/configurator-login': () => ({ status: 200, body: tokens }),
    'GET /config/service-comms/devices/online': () => online,
    'POST /config/service-comms/command': command,
  });
  const { runtime } = startRuntime(server);
  await signIn(runtime, 'admin@fleet.example', 'FleetAdmin#2026');
  const { actors } = createDebuggerActors({
    api: runtime.configApi,
    userId: 1,
    codec,
    loadProduct: async () => hybrid,
    webTransport: new SimulatedTransport({ deviceFor: () => device() }),
  });
  const actor = createActor(
    remoteDebuggerMachine.provide({
      actors: { ...actors, searchDevices: fromPromise(async () => [DEVICE]) },
    }),
    { input: { codec } },
  ).start();
  await waitFor(actor, (s) => !s.matches({ online: 'loading' }));
  actor.send({ type: 'debugger.selectDevice', device: DEVICE });
  await waitFor(actor, (s) => s.matches({ console: { ready: 'idle' } }));
  return actor;
}

const device = () =>
  new SimulatedDevice({ codec, entry: hybrid.entry, config: hybrid.config, serialNumber: SERIAL });
const onlineNow: Answer = {
  status: 200,
  body: { devices: [{ serialNumber: SERIAL, modelId: 'HX-5000', connectedAt: '2026-01-01T00:00:00Z' }] },
};

describe('Remote Debugger paths', () => {
  it('sends the frame remotely with the Bearer token and no api-key, and decodes the answer', async () => {
    const sim = device();
    const actor = await remoteConsole((request) => {
      const { data } = request.body as { data: number[] };
      return {
        status: 200,
        body: { serialNumber: SERIAL, data: Array.from(sim.request(Uint8Array.from(data))) },
      };
    }, onlineNow);
    expect(actor.getSnapshot().context.path).toBe('remote');
    actor.send({ type: 'debugger.send' });
    const done = await waitFor(actor, (s) => s.context.log.length === 1);
    const request = server?.requests.find((r) => r.path === '/config/service-comms/command');
    expect(request?.headers.authorization).toBe('Bearer config-access-1');
    expect(request?.headers['api-key']).toBeUndefined();
    expect(request?.body).toMatchObject({ serialNumber: SERIAL });
    expect((request?.body as { data?: number[] } | undefined)?.data).toHaveLength(255);
    expect(done.context.log[0]).toMatchObject({ outcome: 'answered', path: 'remote' });
    expect(done.context.lastAnswer?.report.values).not.toBeNull();
  });

  it('reports an answer that is not a device frame without crashing', async () => {
    const actor = await remoteConsole(
      () => ({ status: 200, body: { serialNumber: SERIAL, data: [] } }),
      onlineNow,
    );
    actor.send({ type: 'debugger.send' });
    const done = await waitFor(actor, (s) => s.context.log.length === 1);
    expect(done.context.log[0]).toMatchObject({
      outcome: 'failed',
      message: 'The service answered something that is not a device frame.',
    });
  });

  it('says the device went offline when the service answers 409, and timed out on 504', async () => {
    let status = 409;
    const actor = await remoteConsole(
      () => ({
        status,
        body:
          status === 409
            ? { message: 'Device is offline', code: 'device_offline' }
            : { message: 'No answer', code: 'device_timeout' },
      }),
      onlineNow,
    );
    actor.send({ type: 'debugger.send' });
    await waitFor(actor, (s) => s.context.log.length === 1);
    status = 504;
    actor.send({ type: 'debugger.send' });
    const done = await waitFor(actor, (s) => s.context.log.length === 2);
    expect(done.context.log.map((l) => [l.outcome, l.message])).toEqual([
      ['timeout', 'The device did not answer in time (No answer)'],
      ['offline', 'The device is offline: it went away before it answered (Device is offline)'],
    ]);
  });

  it('turns the remote path off when the online list answers 404', async () => {
    const actor = await remoteConsole(() => ({ status: 500 }), {
      status: 404,
      body: { message: 'Not found' },
    });
    expect(actor.getSnapshot().matches({ online: 'unavailable' })).toBe(true);
    // Not reachable remotely, and not given the demo device in its place: the person chooses.
    expect(actor.getSnapshot().context.path).toBeNull();
    expect(actor.getSnapshot().can({ type: 'debugger.selectPath', path: 'remote' })).toBe(false);
  });

  it('answers over the demo device, and logs a dropped Bluetooth link as the device going away', async () => {
    const sim = device();
    const transport = new SimulatedTransport({ deviceFor: () => sim });
    const { actors } = createDebuggerActors({
      api: async () => {
        throw new Error('no server');
      },
      userId: 1,
      codec,
      loadProduct: async () => hybrid,
      webTransport: transport,
    });
    const input: SendInput = {
      path: 'bluetooth',
      serialNumber: SERIAL,
      product: hybrid,
      frame: codec.buildFrame(1, 255),
    };
    const run = (i: SendInput) => toPromise(createActor(actors.sendFrame, { input: i }).start());
    expect((await run(input))[0]).toBe(0x81);
    const link = (await transport.choose({
      service: '',
      characteristic: '',
      bufferSize: 255,
      namePrefix: '',
    })) as SimulatedLink;
    link.drop();
    // A dropped link is opened again for the next command; a drop during the command is reported.
    const original = link.write.bind(link);
    link.write = async (frame) => {
      link.drop();
      return original(frame);
    };
    await expect(run(input)).rejects.toMatchObject({
      outcome: 'offline',
      message: 'The Bluetooth link dropped: The connection to the device was lost.',
    });
  });
});
