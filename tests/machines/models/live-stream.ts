import { expect } from 'vitest';
import { createActor, createMachine, fromCallback, SimulatedClock } from 'xstate';
import type { LiveReading } from '../../../contracts/monitoring.ts';
import {
  LIVE_STALE_MS,
  type LiveStreamEvent,
  liveStreamMachine,
} from '../../../machines/monitoring/live-stream-machine.ts';
import { recordCoverage } from '../paths/coverage-recorder.ts';
import { defineModel, type ModelDriver } from '../paths/model-entry.ts';

/**
 * Abstract model of a device's live values: the stream opens, drops and is opened again after a
 * wait, or is refused; readings make the values fresh, silence makes them stale.
 */
const model = createMachine({
  id: 'liveStreamModel',
  initial: 'connecting',
  states: {
    connecting: { on: { 'stream.opens': 'open', 'stream.drops': 'retrying', 'stream.refuses': 'refused' } },
    open: {
      on: {
        'reading.arrives': 'fresh',
        'old.reading.arrives': 'stale',
        'silence.passes': 'noReading',
        'stream.drops': 'retrying',
      },
    },
    fresh: {
      on: {
        'silence.passes': 'stale',
        'stream.drops': 'retryingWithValues',
        'reading.arrives': 'freshAgain',
        'old.reading.arrives': 'stale',
      },
    },
    freshAgain: { on: { 'silence.passes': 'stale' } },
    stale: { on: { 'reading.arrives': 'fresh', 'old.reading.arrives': 'staleStill' } },
    staleStill: {},
    noReading: { on: { 'reading.arrives': 'fresh' } },
    retrying: { on: { 'backoff.passes': 'connecting' } },
    retryingWithValues: { on: { 'backoff.passes': 'reconnecting' } },
    reconnecting: { on: { 'stream.opens': 'fresh' } },
    refused: {},
  },
});

const SERIAL = 'HX5K-24-000133';

interface FakeStream {
  input: { serial: string; lastEventId: string | null };
  sendBack: (event: LiveStreamEvent) => void;
  stopped: boolean;
}

/** Events and state checks that run one path against the real machine, with a stream the test drives. */
function driver(): ModelDriver {
  const streams: FakeStream[] = [];
  const stream = fromCallback<LiveStreamEvent, FakeStream['input']>(({ sendBack, input }) => {
    const entry: FakeStream = { input, sendBack, stopped: false };
    streams.push(entry);
    return () => {
      entry.stopped = true;
    };
  });
  const clock = new SimulatedClock();
  const actor = createActor(liveStreamMachine.provide({ actors: { stream } }), {
    input: { serial: SERIAL },
    clock,
    inspect: recordCoverage,
  }).start();
  const snap = () => actor.getSnapshot();
  const current = () => {
    const last = streams.at(-1);
    if (!last) throw new Error('no stream was opened');
    return last;
  };
  let latest: LiveReading | null = null;
  let failures = 0;
  // When the values' stale timer started: at the start, then at each fresh reading.
  let timerFrom = clock.now();
  let readings = 0;
  const reading = (): LiveReading => {
    readings += 1;
    const at = new Date(Date.UTC(2026, 2, 4, 12, 0, readings * 10)).toISOString();
    return {
      serial: SERIAL,
      receivedAt: at,
      deviceTime: at,
      clockAhead: false,
      values: { pvPower: 100 * readings },
    };
  };
  const connection = (value: unknown) => expect(snap().value).toMatchObject({ connection: value });
  const data = (value: string) => expect(snap().value).toMatchObject({ data: value });
  return {
    events: {
      'stream.opens': () => current().sendBack({ type: 'stream.opened' }),
      'stream.drops': () => {
        failures += 1;
        current().sendBack({ type: 'stream.closed', message: 'The live stream ended.' });
      },
      'stream.refuses': () =>
        current().sendBack({
          type: 'stream.refused',
          message: 'Live values of this device are not available to you.',
        }),
      'reading.arrives': () => {
        latest = reading();
        failures = 0;
        timerFrom = clock.now();
        current().sendBack({ type: 'stream.reading', reading: latest, ageMs: 2_000 });
      },
      'old.reading.arrives': () => {
        latest = reading();
        failures = 0;
        current().sendBack({ type: 'stream.reading', reading: latest, ageMs: 26 * 3_600_000 });
      },
      // LIVE_STALE_MS after the last fresh reading (or the start), and not one millisecond less.
      'silence.passes': () => {
        const left = timerFrom + LIVE_STALE_MS - clock.now();
        clock.increment(left - 1);
        expect(snap().value).not.toMatchObject({ data: 'stale' });
        clock.increment(1);
      },
      // 1 s after the first failure in a row, doubling: the next stream opens then, not before.
      'backoff.passes': () => {
        const wait = Math.min(30_000, 1_000 * 2 ** (failures - 1));
        const before = streams.length;
        clock.increment(wait - 1);
        expect(streams.length).toBe(before);
        clock.increment(1);
        expect(streams.length).toBe(before + 1);
      },
    },
    states: {
      connecting: () => {
        connection({ streaming: 'connecting' });
        expect(current().stopped).toBe(false);
        expect(current().input).toEqual({ serial: SERIAL, lastEventId: null });
        expect(snap().context.latest).toBeNull();
      },
      open: () => {
        connection({ streaming: 'open' });
        data('waiting');
      },
      fresh: () => {
        data('fresh');
        expect(snap().context.latest).toEqual(latest);
        expect(snap().context.failures).toBe(failures);
      },
      freshAgain: () => {
        data('fresh');
        expect(snap().context.latest).toEqual(latest);
        // A reading never reopens the stream: the one open stays.
        connection({ streaming: 'open' });
        expect(streams.filter((s) => !s.stopped)).toHaveLength(1);
      },
      staleStill: () => {
        data('stale');
        expect(snap().context.latest).toEqual(latest);
        expect(streams.filter((s) => !s.stopped)).toHaveLength(1);
      },
      stale: () => {
        data('stale');
        expect(snap().context.latest).toEqual(latest);
      },
      noReading: () => {
        connection({ streaming: 'open' });
        data('stale');
        expect(snap().context.latest).toBeNull();
      },
      retrying: () => {
        connection('retrying');
        expect(current().stopped).toBe(true);
        expect(snap().context).toMatchObject({ failures, message: 'The live stream ended.' });
      },
      retryingWithValues: () => {
        connection('retrying');
        data('fresh');
        expect(current().stopped).toBe(true);
      },
      reconnecting: () => {
        connection({ streaming: 'connecting' });
        // The new stream asks for what was missed since the last reading shown.
        expect(current().input.lastEventId).toBe(String(Date.parse(latest?.deviceTime ?? '')));
      },
      refused: () => {
        connection('refused');
        expect(current().stopped).toBe(true);
        expect(snap().context.message).toBe('Live values of this device are not available to you.');
      },
    },
  };
}

export default defineModel({
  name: 'live-stream',
  title: "A device's live values (device details)",
  source: 'machines/monitoring/live-stream-machine.ts',
  about:
    'The live stream opens, drops and opens again after 1 s, doubling, asking for what it missed, or is refused; a reading makes the values fresh unless it was already old when it came, and 35 s without one make them stale, connected or not.',
  machine: liveStreamMachine,
  model,
  driver,
  events: {
    'stream.opens': 'The monitoring service accepts the stream.',
    'stream.drops': 'The stream ends or fails (network, token expired, server restart).',
    'stream.refuses': 'The service answers 404: the person may not see this device.',
    'reading.arrives': 'A reading arrives, received by the service 2 s ago.',
    'old.reading.arrives': 'The first event is the last reading of a device silent since yesterday.',
    'silence.passes': '35 s pass without a fresh reading (and not one millisecond less).',
    'backoff.passes': 'The wait after the failures in a row passes (1 s, then 2 s, …).',
  },
  states: {
    connecting: 'Opening the stream, nothing shown yet.',
    open: 'Connected, waiting for the first reading.',
    fresh: 'The tiles show the latest reading, fresh.',
    stale: 'The tiles show the last reading, marked stale with its age.',
    freshAgain:
      'The next reading replaced the last: still fresh, the stale timer started again, the same stream open.',
    staleStill: 'Another old reading (a catch-up after silence): the tiles show it, still stale.',
    noReading: 'Connected, but the device sent nothing: marked as silent.',
    retrying: 'The stream dropped; waiting before opening it again.',
    retryingWithValues: 'The stream dropped; the values shown stay fresh while waiting.',
    reconnecting: 'Opening the stream again, asking for the readings since the last one shown.',
    refused: 'Live values are not available; the stream is not opened again.',
  },
});
