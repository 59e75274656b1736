import { expect } from 'vitest';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { onlineDevicesMachine } from '../../machines/devices-online/online-devices-machine.ts';
import { controlledActor } from './fakes.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

/** Events and state checks that run one path of the devices-online model against the real machine. */
export function onlineDevicesModelDriver(): ModelDriver {
  const fetchOnline = controlledActor<string[], unknown>();
  const clock = new SimulatedClock();
  const actor = createActor(onlineDevicesMachine.provide({ actors: { fetchOnline: fetchOnline.logic } }), {
    clock,
    inspect: recordCoverage,
  }).start();
  let answered = 0;
  let known: string[] = [];
  const snap = () => actor.getSnapshot();
  const asking = () => {
    expect(snap().matches('loading')).toBe(true);
    expect(fetchOnline.pending()).toHaveLength(1);
    // The badges shown meanwhile are the last ones known.
    expect(snap().context.online).toEqual(known);
  };
  const askedSince = (before: number) => waitFor(actor, () => fetchOnline.calls.length === before + 1);
  return {
    events: {
      'answer.online': async () => {
        answered += 1;
        known = [`HX5K-24-${String(answered).padStart(6, '0')}`];
        await fetchOnline.last().resolve(known);
      },
      'answer.fails': () => fetchOnline.last().reject(new Error('Failed to fetch')),
      // ONLINE_POLL_MS pinned here: the device side pings every 15 s, the screens ask every 20 s.
      'poll.elapsed': async () => {
        const before = fetchOnline.calls.length;
        clock.increment(19_999);
        expect(fetchOnline.calls.length).toBe(before);
        clock.increment(1);
        await askedSince(before);
      },
      'online.refresh': async () => {
        const before = fetchOnline.calls.length;
        actor.send({ type: 'online.refresh' });
        await askedSince(before);
      },
    },
    states: {
      opening: asking,
      shown: () => {
        expect(snap().matches('waiting')).toBe(true);
        expect(snap().context).toEqual({ online: known, stale: false });
      },
      stale: () => {
        expect(snap().matches('waiting')).toBe(true);
        expect(snap().context).toEqual({ online: known, stale: true });
      },
      asking,
      askingAfterFailure: () => {
        asking();
        expect(snap().context.stale).toBe(true);
      },
    },
  };
}
