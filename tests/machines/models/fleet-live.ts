import { expect } from 'vitest';
import { createActor, createMachine, fromCallback, SimulatedClock, waitFor } from 'xstate';
import { type FleetStreamEvent, fleetLiveMachine } from '../../../machines/monitoring/fleet-live-machine.ts';
import { controlledActor } from '../fakes.ts';
import { recordCoverage } from '../paths/coverage-recorder.ts';
import { defineModel, type ModelDriver } from '../paths/model-entry.ts';

/**
 * Abstract model of a screen kept current by the fleet stream (a site's page, site 3): the
 * stream opens and the screen is refreshed; changes at the site refresh it, one refresh at a time,
 * changes elsewhere do not; the person's own change refreshes it; a dropped stream is opened again
 * after a wait and the screen refreshed then; a refused one is not opened again.
 */
const model = createMachine({
  id: 'fleetLiveModel',
  initial: 'connecting',
  states: {
    connecting: {
      on: { 'stream.opens': 'loadingNewest', 'stream.drops': 'retrying', 'stream.refuses': 'refused' },
    },
    loadingNewest: {
      on: { 'refresh.done': 'current', 'refresh.fails': 'keptAsLoaded', 'change.here': 'changedDuring' },
    },
    current: {
      on: {
        'change.here': 'afterChange',
        'change.elsewhere': 'stillCurrent',
        'person.changes': 'askedByPerson',
        'stream.drops': 'retrying',
      },
    },
    stillCurrent: {},
    keptAsLoaded: { on: { 'change.here': 'afterChange' } },
    afterChange: { on: { 'refresh.done': 'current', 'stream.drops': 'droppedWhileLoading' } },
    droppedWhileLoading: { on: { 'backoff.passes': 'reconnectingWhileLoading' } },
    reconnectingWhileLoading: { on: { 'stream.opens': 'changedDuring' } },
    changedDuring: { on: { 'refresh.done': 'pausing', 'refresh.fails': 'pausing' } },
    pausing: { on: { 'gap.passes': 'refreshingAgain' } },
    refreshingAgain: { on: { 'refresh.done': 'current' } },
    askedByPerson: { on: { 'refresh.done': 'current', 'person.changes': 'changedDuring' } },
    retrying: { on: { 'backoff.passes': 'reconnecting' } },
    reconnecting: { on: { 'stream.opens': 'loadingNewest' } },
    refused: {},
  },
});

const SITE = 3;

interface FakeStream {
  sendBack: (event: FleetStreamEvent) => void;
  stopped: boolean;
}

function driver(): ModelDriver {
  const streams: FakeStream[] = [];
  const stream = fromCallback<FleetStreamEvent>(({ sendBack }) => {
    const entry: FakeStream = { sendBack, stopped: false };
    streams.push(entry);
    return () => {
      entry.stopped = true;
    };
  });
  const refresh = controlledActor<void, unknown>();
  const clock = new SimulatedClock();
  const actor = createActor(fleetLiveMachine.provide({ actors: { stream, refresh: refresh.logic } }), {
    input: { siteId: SITE },
    clock,
    inspect: recordCoverage,
  }).start();
  const snap = () => actor.getSnapshot();
  const current = () => {
    const last = streams.at(-1);
    if (!last) throw new Error('no stream was opened');
    return last;
  };
  let failures = 0;
  const refreshing = (count: number) => {
    expect(snap().value).toMatchObject({ screen: 'refreshing' });
    expect(refresh.pending()).toHaveLength(1);
    expect(refresh.calls).toHaveLength(count);
  };
  const shown = (count: number) => {
    expect(snap().value).toMatchObject({ screen: 'shown', connection: { streaming: 'open' } });
    expect(refresh.pending()).toHaveLength(0);
    expect(refresh.calls).toHaveLength(count);
  };
  /** Refreshes started so far, as each state expects them. */
  let started = 0;
  return {
    events: {
      // An open stream starts the count of failures in a row again.
      'stream.opens': () => {
        if (snap().matches({ screen: 'shown' })) started += 1;
        failures = 0;
        current().sendBack({ type: 'stream.opened' });
      },
      'stream.drops': () => {
        failures += 1;
        current().sendBack({ type: 'stream.closed', message: 'The fleet stream ended.' });
      },
      'stream.refuses': () => current().sendBack({ type: 'stream.refused', message: 'Not for you.' }),
      'change.here': () => {
        if (snap().matches({ screen: 'shown' })) started += 1;
        current().sendBack({ type: 'stream.changed', sites: [SITE + 4, SITE] });
      },
      'change.elsewhere': () => current().sendBack({ type: 'stream.changed', sites: [SITE + 1] }),
      'person.changes': () => {
        if (snap().matches({ screen: 'shown' })) started += 1;
        actor.send({ type: 'fleet.refresh' });
      },
      'refresh.done': async () => {
        const again = snap().context.again;
        await refresh.last().resolve(undefined);
        await waitFor(actor, (s) => s.matches({ screen: again ? 'pausing' : 'shown' }));
      },
      'refresh.fails': async () => {
        const again = snap().context.again;
        await refresh.last().reject(new Error('Failed to fetch'));
        await waitFor(actor, (s) => s.matches({ screen: again ? 'pausing' : 'shown' }));
      },
      // REFRESH_GAP_MS after the load that had changes come meanwhile, and not one millisecond less.
      'gap.passes': () => {
        const before = refresh.calls.length;
        clock.increment(999);
        expect(refresh.calls.length).toBe(before);
        clock.increment(1);
        expect(refresh.calls.length).toBe(before + 1);
        started += 1;
      },
      // 1 s after the first failure in a row, doubling: the stream opens again then, not before.
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
        expect(snap().value).toMatchObject({ connection: { streaming: 'connecting' }, screen: 'shown' });
        expect(refresh.calls).toHaveLength(0);
      },
      loadingNewest: () => refreshing(started),
      current: () => shown(started),
      stillCurrent: () => shown(started),
      keptAsLoaded: () => shown(started),
      afterChange: () => refreshing(started),
      changedDuring: () => {
        refreshing(started);
        expect(snap().context.again).toBe(true);
      },
      pausing: () => {
        expect(snap().value).toMatchObject({ screen: 'pausing' });
        expect(refresh.pending()).toHaveLength(0);
        expect(refresh.calls).toHaveLength(started);
      },
      refreshingAgain: () => {
        refreshing(started);
        expect(snap().context.again).toBe(false);
      },
      askedByPerson: () => refreshing(started),
      droppedWhileLoading: () => {
        expect(snap().value).toMatchObject({ connection: 'retrying' });
        refreshing(started);
      },
      reconnectingWhileLoading: () => {
        expect(snap().value).toMatchObject({ connection: { streaming: 'connecting' } });
        refreshing(started);
      },
      retrying: () => {
        expect(snap().value).toMatchObject({ connection: 'retrying' });
        expect(current().stopped).toBe(true);
        expect(snap().context).toMatchObject({ failures, message: 'The fleet stream ended.' });
      },
      reconnecting: () => {
        expect(snap().value).toMatchObject({ connection: { streaming: 'connecting' } });
        expect(current().stopped).toBe(false);
      },
      refused: () => {
        expect(snap().value).toMatchObject({ connection: 'refused' });
        expect(current().stopped).toBe(true);
        expect(snap().context.message).toBe('Not for you.');
      },
    },
  };
}

export default defineModel({
  name: 'fleet-live',
  title: 'Screens kept current by the fleet stream (Home, Alarms, site and device details)',
  source: 'machines/monitoring/fleet-live-machine.ts',
  about:
    "A site's page follows the fleet stream: it is refreshed when the stream opens or reopens, when a change at its site comes (one refresh at a time: changes meanwhile make one more, a second later), and when the person changes something; changes elsewhere leave it; a dropped stream opens again after 1 s, doubling; a refused one does not.",
  machine: fleetLiveMachine,
  model,
  driver,
  // The model's loops give hundreds of simple paths; the shortest reach every state and transition.
  simplePaths: false,
  events: {
    'stream.opens': 'The monitoring service accepts the fleet stream.',
    'stream.drops': 'The stream ends or fails (network, token expired, server restart).',
    'stream.refuses': 'The service refuses the stream for good.',
    'change.here':
      'The service says the site changed (with another site): an alarm, a device online or gone.',
    'change.elsewhere': 'The service says another site changed.',
    'person.changes': 'The person changed something on the screen (acknowledged an alarm).',
    'refresh.done': "The screen's loaders answered.",
    'refresh.fails':
      "The screen's loaders failed (each shows its own error; a change meanwhile loads again).",
    'backoff.passes': 'The wait after the failures in a row passes (1 s, then 2 s, …).',
    'gap.passes': 'A second passes after a load that had changes come meanwhile.',
  },
  states: {
    connecting: 'The screen shows what it loaded; the stream is opening.',
    loadingNewest: 'The stream opened: the screen loads the newest, since anything may have changed.',
    current: 'The screen shows the newest; the stream is open.',
    stillCurrent: 'A change elsewhere: nothing is loaded again.',
    keptAsLoaded: 'Loading the newest failed: the screen stays as it was, the stream open.',
    afterChange: 'A change at the site: the screen loads the newest.',
    changedDuring:
      'Another change came while loading (or the stream reopened, or the person changed something): one more load will follow.',
    droppedWhileLoading: 'The stream dropped while the screen was loading the newest.',
    reconnectingWhileLoading: 'Opening the stream again while the screen is still loading.',
    pausing: 'Loaded; a second passes before loading once more for what came meanwhile.',
    refreshingAgain: 'Loading once more for the change that came meanwhile.',
    askedByPerson: "The person's own change: the screen loads the newest.",
    retrying: 'The stream dropped; waiting before opening it again, the screen as it was.',
    reconnecting: 'Opening the stream again.',
    refused: 'The stream is not opened again; the screen stays as loaded.',
  },
});
