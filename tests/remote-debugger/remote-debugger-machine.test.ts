import { beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import type { OnlineDevice } from '../../contracts/service-comms.ts';
import { remoteDebuggerMachine } from '../../machines/remote-debugger/debugger-machine.ts';
import {
  type DebugDevice,
  ExchangeFailure,
  type SendInput,
} from '../../machines/remote-debugger/debugger-types.ts';
import { type LogEntry, logFileText } from '../../machines/remote-debugger/exchange-log.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';

const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000') as DeviceProduct;
const ONLINE: DebugDevice = {
  serialNumber: 'HX5K-24-000123',
  modelId: 'HX-5000',
  name: 'Roof',
  siteName: 'Depot',
};
const OFFLINE: DebugDevice = {
  serialNumber: 'HX5K-24-000124',
  modelId: 'HX-5000',
  name: 'Barn',
  siteName: 'Farm',
};
let codec: Codec;

beforeAll(async () => {
  codec = await loadCodec();
});

type Send = (input: SendInput) => Promise<Uint8Array>;

/** The console over fakes: a device search, an online list, the catalogue, and a send that the test decides. */
function start(
  options: { send?: Send; online?: OnlineDevice[] | null; log?: LogEntry[]; clock?: SimulatedClock } = {},
) {
  const device = new SimulatedDevice({
    codec,
    entry: hybrid.entry,
    config: hybrid.config,
    serialNumber: ONLINE.serialNumber,
  });
  const sent: SendInput[] = [];
  const stored: LogEntry[][] = [];
  const send: Send = options.send ?? (async (input) => device.request(input.frame));
  const logic = remoteDebuggerMachine.provide({
    actors: {
      searchDevices: fromPromise(async ({ input }: { input: { query: string } }) =>
        [ONLINE, OFFLINE].filter((d) => d.serialNumber.includes(input.query)),
      ),
      fetchOnline: fromPromise(async () =>
        options.online === undefined
          ? [{ serialNumber: ONLINE.serialNumber, modelId: 'HX-5000', connectedAt: '2026-01-01T00:00:00Z' }]
          : options.online,
      ),
      loadProduct: fromPromise(async () => hybrid),
      sendFrame: fromPromise(({ input }: { input: SendInput }) => {
        sent.push(input);
        return send(input);
      }),
    },
    actions: { persistLog: (_, params) => stored.push(params.log) },
  });
  const actor = createActor(logic, {
    input: { codec, log: options.log ?? [], timeoutMs: 10_000 },
    ...(options.clock ? { clock: options.clock } : {}),
  }).start();
  return { actor, sent, stored };
}

async function ready(actor: ReturnType<typeof start>['actor'], device: DebugDevice) {
  await waitFor(actor, (s) => s.matches({ online: 'known' }) || s.matches({ online: 'unavailable' }));
  actor.send({ type: 'debugger.selectDevice', device });
  await waitFor(actor, (s) => s.matches({ console: { ready: 'idle' } }));
}

describe('Remote Debugger console', () => {
  it('finds devices by serial and marks the online one', async () => {
    const { actor } = start();
    actor.send({ type: 'debugger.search', query: '000124' });
    const found = await waitFor(actor, (s) => s.matches({ search: 'idle' }) && s.context.query === '000124');
    expect(found.context.devices).toEqual([OFFLINE]);
  });

  it('goes remote for an online device, and lets the person choose for an offline one', async () => {
    const { actor, sent } = start();
    await ready(actor, ONLINE);
    expect(actor.getSnapshot().context.path).toBe('remote');
    await ready(actor, OFFLINE);
    // Never the demo device in its place: no path until the person picks one, and nothing to send.
    expect(actor.getSnapshot().context.path).toBeNull();
    expect(actor.getSnapshot().can({ type: 'debugger.send' })).toBe(false);
    actor.send({ type: 'debugger.send' });
    expect(sent).toEqual([]);
    expect(actor.getSnapshot().can({ type: 'debugger.selectPath', path: 'remote' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'debugger.selectPath', path: 'bluetooth' })).toBe(true);
    actor.send({ type: 'debugger.selectPath', path: 'demo' });
    expect(actor.getSnapshot().can({ type: 'debugger.send' })).toBe(true);
  });

  it('turns the remote path off when the service has no online list', async () => {
    const { actor } = start({ online: null });
    await ready(actor, ONLINE);
    expect(actor.getSnapshot().matches({ online: 'unavailable' })).toBe(true);
    expect(actor.getSnapshot().context.path).toBeNull();
    expect(actor.getSnapshot().can({ type: 'debugger.selectPath', path: 'remote' })).toBe(false);
  });

  it('sends the framed read-configuration command and shows the decoded answer', async () => {
    const { actor, sent, stored } = start();
    await ready(actor, ONLINE);
    actor.send({ type: 'debugger.send' });
    const done = await waitFor(actor, (s) => s.context.lastAnswer !== null);
    expect(sent[0]).toMatchObject({ path: 'remote', serialNumber: ONLINE.serialNumber });
    expect(sent[0]?.frame[0]).toBe(0x01);
    expect(sent[0]?.frame.length).toBe(255);
    const first = hybrid.config.rawData[0]?.name ?? '';
    expect(done.context.lastAnswer?.report.values?.[first]).toBeDefined();
    expect(done.context.log[0]).toMatchObject({
      outcome: 'answered',
      serialNumber: ONLINE.serialNumber,
      path: 'remote',
    });
    expect(stored.at(-1)).toEqual(done.context.log);
  });

  it('names the error code when the device answers an error', async () => {
    const { actor } = start();
    await ready(actor, ONLINE);
    actor.send({ type: 'debugger.opcode', text: '10' });
    actor.send({ type: 'debugger.send' });
    const done = await waitFor(actor, (s) => s.context.log.length === 1);
    expect(done.context.lastAnswer?.report.errorCode).toBe('locked');
    expect(done.context.log[0]?.outcome).toBe('device-error');
  });

  it('refuses to send bad hex or a payload too long for the frame, and says why', async () => {
    const { actor, sent } = start();
    await ready(actor, ONLINE);
    expect(actor.getSnapshot().can({ type: 'debugger.send' })).toBe(true);
    actor.send({ type: 'debugger.payloadHex', text: '12 xy' });
    expect(actor.getSnapshot().can({ type: 'debugger.send' })).toBe(false);
    expect(actor.getSnapshot().context.composed).toMatchObject({
      ok: false,
      message: 'Payload: “xy” is not hex: use the digits 0–9 and the letters A–F.',
    });
    actor.send({ type: 'debugger.send' });
    actor.send({ type: 'debugger.payloadHex', text: '00 '.repeat(253) });
    expect(actor.getSnapshot().can({ type: 'debugger.send' })).toBe(false);
    expect(actor.getSnapshot().context.composed).toMatchObject({
      ok: false,
      message: expect.stringContaining('The payload has 253 bytes'),
    });
    actor.send({ type: 'debugger.send' });
    expect(sent).toEqual([]);
    expect(actor.getSnapshot().context.log).toEqual([]);
    actor.send({ type: 'debugger.payloadHex', text: '31 32' });
    expect(actor.getSnapshot().can({ type: 'debugger.send' })).toBe(true);
  });

  it('masks the device password in a decoded answer and in the bytes laid over it', async () => {
    const { actor } = start();
    await ready(actor, ONLINE);
    actor.send({ type: 'debugger.send' });
    const { report } = (await waitFor(actor, (s) => s.context.lastAnswer !== null)).context.lastAnswer ?? {};
    expect(report?.values?.password).toBe('••••••••');
    expect(report?.values?.pass_00).toBe('••••••••');
    // The simulated device's password is "0000"; no decoded value holds it.
    expect(Object.values(report?.values ?? {})).not.toContain('0000');
    const at = hybrid.config.rawData.find((item) => item.name === 'pass_00')?.buffer.position ?? -1;
    expect(report?.bytes[at]).toEqual({ field: 'password, character 1', value: 'hidden', secret: true });
    // Other text fields still read as text.
    expect(typeof report?.values?.deviceName).toBe('string');
    expect(report?.values?.deviceName).not.toBe('••••••••');
  });

  it('logs an answer with a bad CRC as damaged', async () => {
    const device = new SimulatedDevice({
      codec,
      entry: hybrid.entry,
      config: hybrid.config,
      serialNumber: 'X',
    });
    const { actor } = start({
      send: async (input) => {
        const answer = device.request(input.frame);
        answer[20] = (answer[20] ?? 0) ^ 1;
        return answer;
      },
    });
    await ready(actor, ONLINE);
    actor.send({ type: 'debugger.send' });
    const done = await waitFor(actor, (s) => s.context.log.length === 1);
    expect(done.context.log[0]).toMatchObject({
      outcome: 'bad-answer',
      message: 'The answer was damaged: its CRC does not match its bytes.',
    });
  });

  it('logs a device that went offline mid-command (409) and keeps working', async () => {
    const { actor } = start({
      send: async () => {
        throw new ExchangeFailure(
          'offline',
          'The device is offline: it went away before it answered (device_offline)',
        );
      },
    });
    await ready(actor, ONLINE);
    actor.send({ type: 'debugger.send' });
    const done = await waitFor(actor, (s) => s.context.log.length === 1);
    expect(done.context.log[0]).toMatchObject({ outcome: 'offline' });
    expect(done.can({ type: 'debugger.send' })).toBe(true);
  });

  it('gives up on an answer that does not come and says so', async () => {
    const clock = new SimulatedClock();
    const { actor } = start({ clock, send: () => new Promise<Uint8Array>(() => {}) });
    await ready(actor, ONLINE);
    actor.send({ type: 'debugger.send' });
    expect(actor.getSnapshot().matches({ console: { ready: 'sending' } })).toBe(true);
    clock.increment(10_000);
    const done = await waitFor(actor, (s) => s.context.log.length === 1);
    expect(done.context.log[0]).toMatchObject({
      outcome: 'timeout',
      message: 'No answer from the device within 10 s.',
    });
    expect(done.matches({ console: { ready: 'idle' } })).toBe(true);
  });

  it('keeps the log it was given, loads a saved file, and refuses a bad one by name', async () => {
    const earlier: LogEntry = {
      id: 'a',
      at: '2026-01-01T00:00:00.000Z',
      serialNumber: ONLINE.serialNumber,
      path: 'demo',
      outcome: 'answered',
      message: 'Answered 0x81 with the configuration.',
      sent: [1],
      answer: [0x81],
    };
    const { actor, stored } = start({ log: [earlier] });
    expect(actor.getSnapshot().context.log).toEqual([earlier]);
    actor.send({ type: 'debugger.loadLog', text: '{"kind":"something else"}' });
    expect(actor.getSnapshot().context.logProblem).toMatch(
      /^This file is not a saved debugger log \(at kind\)/,
    );
    actor.send({ type: 'debugger.loadLog', text: 'not json' });
    expect(actor.getSnapshot().context.logProblem).toBe(
      'This file is not JSON, so it is not a saved debugger log.',
    );
    actor.send({ type: 'debugger.clearLog' });
    expect(actor.getSnapshot().context.log).toEqual([]);
    actor.send({ type: 'debugger.loadLog', text: logFileText([earlier]) });
    expect(actor.getSnapshot().context).toMatchObject({ log: [earlier], logProblem: null });
    expect(stored.at(-1)).toEqual([earlier]);
  });
});
