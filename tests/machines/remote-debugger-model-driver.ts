import { expect } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import type { OnlineDevice } from '../../contracts/service-comms.ts';
import { remoteDebuggerMachine } from '../../machines/remote-debugger/debugger-machine.ts';
import {
  type DebugDevice,
  ExchangeFailure,
  type SendInput,
} from '../../machines/remote-debugger/debugger-types.ts';
import { type LogEntry, logFileText } from '../../machines/remote-debugger/exchange-log.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';
import { controlledActor } from './fakes.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const codec = await loadCodec();
const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000') as DeviceProduct;
const ROOF: DebugDevice = {
  serialNumber: 'HX5K-24-000123',
  modelId: 'HX-5000',
  name: 'Roof',
  siteName: 'Depot',
};
const BARN: DebugDevice = {
  serialNumber: 'HX5K-24-000124',
  modelId: 'HX-5000',
  name: 'Barn',
  siteName: 'Farm',
};
const onlineList = (...devices: DebugDevice[]): OnlineDevice[] =>
  devices.map((d) => ({
    serialNumber: d.serialNumber,
    modelId: d.modelId,
    connectedAt: '2026-01-01T00:00:00Z',
  }));
/** A saved log of one earlier exchange, as "Save log" writes it. */
const SAVED: LogEntry = {
  id: 'saved-1',
  at: '2026-01-01T00:00:00.000Z',
  serialNumber: BARN.serialNumber,
  path: 'demo',
  outcome: 'answered',
  message: 'Read configuration answered.',
  sent: [1, 0, 0],
  answer: [129, 0, 0],
};

/**
 * Events and state checks that run one path of the Remote Debugger model against the real console
 * machine: the device search, the online list and the catalogue answered by hand, and every frame
 * answered by the real simulated device (or held, failed or left to time out), on a simulated clock.
 */
export function remoteDebuggerModelDriver(): ModelDriver {
  const search = controlledActor<DebugDevice[], { query: string }>();
  const online = controlledActor<OnlineDevice[] | null, unknown>();
  const product = controlledActor<DeviceProduct, { modelId: string }>();
  const send = controlledActor<Uint8Array, SendInput>();
  const device = new SimulatedDevice({
    codec,
    entry: hybrid.entry,
    config: hybrid.config,
    serialNumber: ROOF.serialNumber,
  });
  const persisted: LogEntry[][] = [];
  const clock = new SimulatedClock();
  const machine = remoteDebuggerMachine.provide({
    actors: {
      searchDevices: search.logic,
      fetchOnline: online.logic,
      loadProduct: product.logic,
      sendFrame: send.logic,
    },
    actions: { persistLog: (_, params) => persisted.push(params.log) },
  });
  const actor = createActor(machine, {
    input: { codec, log: [], timeoutMs: 10_000 },
    clock,
    inspect: recordCoverage,
  }).start();
  const snap = () => actor.getSnapshot();
  let logAtSend = 0;
  let selected: DebugDevice | null = null;

  const opens = async (list: OnlineDevice[] | null | Error) => {
    await search.last().resolve([ROOF, BARN]);
    if (list instanceof Error) await online.last().reject(list);
    else await online.last().resolve(list);
  };
  const select = async (device: DebugDevice, answer: 'loads' | 'fails') => {
    selected = device;
    actor.send({ type: 'debugger.selectDevice', device });
    if (answer === 'loads') await product.last().resolve(hybrid);
    else await product.last().reject(new Error('HTTP 503'));
  };
  const idle = () => {
    expect(snap().matches({ console: { ready: 'idle' } })).toBe(true);
    expect(snap().context.sending).toBeNull();
  };
  /** The newest log line, which must also be what was kept for the next visit. */
  const lastLine = () => {
    const line = snap().context.log[0];
    expect(persisted.at(-1)).toEqual(snap().context.log);
    return line;
  };
  const ready = (path: 'remote' | 'demo' | 'bluetooth') => {
    idle();
    expect(snap().context.device).toEqual(selected);
    expect(snap().context.path).toBe(path);
    expect(snap().context.composed?.ok).toBe(true);
  };
  const composedOpcode = () => {
    const composed = snap().context.composed;
    return composed?.ok ? composed.frame[0] : null;
  };
  const exchangeLogged = (outcome: string, message: string | RegExp) => {
    idle();
    expect(snap().context.log).toHaveLength(logAtSend + 1);
    expect(lastLine()).toMatchObject({ outcome, serialNumber: ROOF.serialNumber, path: 'remote' });
    expect(lastLine()?.message).toMatch(message);
    expect(lastLine()?.sent?.[0]).toBe(0x01);
  };

  return {
    events: {
      'console.opens': () => opens(onlineList(ROOF)),
      'console.opensWithoutOnlineList': () => opens(null),
      'console.opensOnlineFails': () => opens(new Error('HTTP 502')),
      'debugger.refreshOnline': async () => {
        const wasKnown = snap().matches({ online: 'known' });
        actor.send({ type: 'debugger.refreshOnline' });
        // Roof went away since the list was read; where no list was shown, it is there now.
        await online.last().resolve(wasKnown ? onlineList() : onlineList(ROOF));
      },
      'debugger.search': () => actor.send({ type: 'debugger.search', query: ' 000124 ' }),
      // SEARCH_DELAY_MS pinned here: a search waits 250 ms for the next key.
      'search.pause': () => {
        clock.increment(249);
        expect(search.pending()).toHaveLength(0);
        clock.increment(1);
      },
      'devices.found': () => search.last().resolve([BARN]),
      'search.fails': () => search.last().reject(new Error('HTTP 500')),
      'debugger.selectDevice': () => select(ROOF, 'loads'),
      'debugger.selectDeviceNoCatalogue': () => select(ROOF, 'fails'),
      'debugger.selectRemote': () => actor.send({ type: 'debugger.selectPath', path: 'remote' }),
      'debugger.selectBluetooth': () => actor.send({ type: 'debugger.selectPath', path: 'bluetooth' }),
      'debugger.opcode': () => actor.send({ type: 'debugger.opcode', text: '10' }),
      'debugger.payloadMode': () => actor.send({ type: 'debugger.payloadMode', mode: 'fields' }),
      'debugger.field': () => actor.send({ type: 'debugger.field', name: 'modbusAddress', value: '7' }),
      'debugger.sendBadHex': () => {
        logAtSend = snap().context.log.length;
        actor.send({ type: 'debugger.payloadHex', text: '12 xy' });
        actor.send({ type: 'debugger.send' });
      },
      'debugger.send': () => {
        logAtSend = snap().context.log.length;
        actor.send({ type: 'debugger.send' });
      },
      'device.answers': async () => {
        const call = send.last();
        await call.resolve(device.request(call.input.frame));
      },
      'device.offline': () =>
        send
          .last()
          .reject(
            new ExchangeFailure(
              'offline',
              'The device is offline: it went away before it answered (device_offline)',
            ),
          ),
      // ANSWER_TIMEOUT_MS as the console was given it: 10 s.
      'answer.timeout': () => {
        clock.increment(9_999);
        expect(snap().matches({ console: { ready: 'sending' } })).toBe(true);
        clock.increment(1);
      },
      'debugger.cancel': () => actor.send({ type: 'debugger.cancel' }),
      'debugger.selectOther': () => actor.send({ type: 'debugger.selectDevice', device: BARN }),
      'debugger.clearLog': () => actor.send({ type: 'debugger.clearLog' }),
      'debugger.loadLog': () => actor.send({ type: 'debugger.loadLog', text: logFileText([SAVED]) }),
      'debugger.loadBadLog': () => actor.send({ type: 'debugger.loadLog', text: '{"entries": []}' }),
      'debugger.dismissLogProblem': () => actor.send({ type: 'debugger.dismissLogProblem' }),
    },
    states: {
      opening: () => {
        expect(snap().matches({ search: 'fetching' })).toBe(true);
        expect(search.last().input).toEqual({ query: '' });
        expect(snap().matches({ online: 'loading' })).toBe(true);
        expect(snap().matches({ console: 'noDevice' })).toBe(true);
      },
      noDevice: () => {
        expect(snap().matches({ console: 'noDevice' })).toBe(true);
        expect(snap().context.devices).toEqual([ROOF, BARN]);
        expect(snap().matches({ online: 'known' })).toBe(true);
      },
      onlineUnavailable: () => {
        expect(snap().matches({ online: 'unavailable' })).toBe(true);
        expect(snap().context.online).toBeNull();
        expect(snap().context.onlineProblem).toBeNull();
      },
      onlineFailed: () => {
        expect(snap().matches({ online: 'failed' })).toBe(true);
        expect(snap().context.onlineProblem).toBe('Which devices are online could not be read: HTTP 502');
      },
      onlineListedNow: () => {
        expect(snap().matches({ online: 'known' })).toBe(true);
        expect(snap().context.online?.map((d) => d.serialNumber)).toEqual([ROOF.serialNumber]);
      },
      deviceWentOffline: () => {
        expect(snap().matches({ online: 'known' })).toBe(true);
        expect(snap().context.online).toEqual([]);
      },
      typing: () => {
        expect(snap().matches({ search: 'waiting' })).toBe(true);
        expect(search.pending()).toHaveLength(0);
      },
      searching: () => {
        expect(snap().matches({ search: 'fetching' })).toBe(true);
        expect(search.last().input).toEqual({ query: '000124' });
      },
      found: () => {
        expect(snap().matches({ search: 'idle' })).toBe(true);
        expect(snap().context.devices).toEqual([BARN]);
        expect(snap().context.searchProblem).toBeNull();
      },
      searchFailed: () => {
        expect(snap().matches({ search: 'idle' })).toBe(true);
        expect(snap().context.searchProblem).toBe('The devices could not be searched: HTTP 500');
        // The devices found before stay listed.
        expect(snap().context.devices).toEqual([ROOF, BARN]);
      },
      productFailed: () => {
        expect(snap().matches({ console: 'productFailed' })).toBe(true);
        expect(snap().context.productProblem).toBe(
          "This device's catalogue entry could not be loaded: HTTP 503",
        );
        expect(snap().can({ type: 'debugger.send' })).toBe(false);
      },
      readyRemote: () => {
        ready('remote');
        expect(composedOpcode()).toBe(0x01);
      },
      offlineNoPath: () => {
        idle();
        expect(snap().context.device).toEqual(selected);
        expect(snap().context.path).toBeNull();
        expect(snap().can({ type: 'debugger.send' })).toBe(false);
        expect(snap().can({ type: 'debugger.selectPath', path: 'remote' })).toBe(false);
      },
      remoteRefused: () => {
        idle();
        expect(snap().context.path).toBeNull();
      },
      bluetoothPath: () => ready('bluetooth'),
      opcodeTyped: () => {
        ready('remote');
        expect(composedOpcode()).toBe(0x10);
      },
      fieldsMode: () => {
        ready('remote');
        expect(snap().context.draft.payloadMode).toBe('fields');
      },
      fieldSet: () => {
        ready('remote');
        const composed = snap().context.composed;
        const item = hybrid.config.rawData.find((r) => r.name === 'modbusAddress');
        expect(composed?.ok && item ? composed.frame[item.buffer.position] : null).toBe(7);
      },
      badFrameHeld: () => {
        idle();
        expect(send.calls).toHaveLength(0);
        expect(snap().context.log).toHaveLength(logAtSend);
        expect(snap().can({ type: 'debugger.send' })).toBe(false);
        expect(snap().context.composed).toMatchObject({
          ok: false,
          message: expect.stringContaining('“xy” is not hex'),
        });
      },
      sending: () => {
        expect(snap().matches({ console: { ready: 'sending' } })).toBe(true);
        expect(send.last().input).toMatchObject({ path: 'remote', serialNumber: ROOF.serialNumber });
        expect(send.last().input.frame[0]).toBe(0x01);
        expect(snap().can({ type: 'debugger.send' })).toBe(false);
      },
      stillSending: () => {
        expect(snap().matches({ console: { ready: 'sending' } })).toBe(true);
        // Choosing another device waits until the exchange under way ends.
        expect(snap().context.device).toEqual(ROOF);
      },
      answered: () => {
        exchangeLogged('answered', /./);
        expect(lastLine()?.answer?.[0]).toBe(0x81);
        expect(snap().context.lastAnswer?.report.outcome).toBe('answered');
      },
      offlineLogged: () => exchangeLogged('offline', /^The device is offline/),
      timedOut: () => exchangeLogged('timeout', 'No answer from the device within 10 s.'),
      cancelled: () => exchangeLogged('failed', 'Cancelled before the device answered.'),
      logCleared: () => {
        expect(snap().context.log).toEqual([]);
        expect(persisted.at(-1)).toEqual([]);
      },
      logLoaded: () => {
        expect(snap().context.log).toEqual([SAVED]);
        expect(persisted.at(-1)).toEqual([SAVED]);
      },
      logRefused: () => {
        expect(snap().context.logProblem).toMatch(/^This file is not a saved debugger log/);
        expect(snap().context.log).toEqual([]);
      },
      logProblemDismissed: () => {
        expect(snap().context.logProblem).toBeNull();
        ready('remote');
      },
    },
  };
}
