import { expect } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { saveMachine } from '../../machines/save/save-machine.ts';
import { controlledActor } from './fakes.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const REFUSED = 'A site with this name already exists for this owner.';

/** One call to a service the test answers by hand, and the AbortSignal it was given. */
interface SentCall {
  signal: AbortSignal;
  answer: (value: unknown) => void;
  fail: (error: unknown) => void;
}

/** Events and state checks that run one path of the save model against the real machine. */
export function saveModelDriver(): ModelDriver {
  const refresh = controlledActor<void, unknown>();
  const savedOutputs: unknown[] = [];
  const actor = createActor(
    saveMachine.provide({
      actors: { refresh: refresh.logic },
      actions: { saved: (_, { output }) => void savedOutputs.push(output) },
    }),
    { inspect: recordCoverage },
  ).start();
  const snap = () => actor.getSnapshot();
  const calls: SentCall[] = [];
  let expectedOutput: unknown;
  let savedCountBefore = 0;
  let refreshesBefore = 0;
  const send = (refreshes: boolean) => {
    actor.send({
      type: 'save',
      refreshes,
      run: (signal) =>
        new Promise((answer, fail) => {
          calls.push({ signal, answer, fail });
        }),
    });
  };
  const last = () => {
    const call = calls.at(-1);
    if (!call) throw new Error('no save was sent');
    return call;
  };
  const shows = (pending: boolean, error: string | null) => {
    expect(snap().matches('saving') || snap().matches('refreshing')).toBe(pending);
    expect(snap().matches('failed') ? snap().context.error : null).toBe(error);
  };
  return {
    events: {
      'change.save': () => {
        savedCountBefore = savedOutputs.length;
        send(true);
      },
      'export.save': () => {
        savedCountBefore = savedOutputs.length;
        refreshesBefore = refresh.calls.length;
        send(false);
      },
      'change.saveAgain': () => {
        // A double click: the second press must send nothing.
        const before = calls.length;
        send(true);
        expect(calls).toHaveLength(before);
      },
      'service.accepts': async () => {
        expectedOutput = { id: calls.length };
        last().answer(expectedOutput);
        await waitFor(actor, (s) => !s.matches('saving'));
      },
      'service.refuses': async () => {
        last().fail(new Error(REFUSED));
        await waitFor(actor, (s) => s.matches('failed'));
      },
      'page.reloaded': () => refresh.last().resolve(),
      'page.reloadFails': () => refresh.last().reject(new Error('Failed to fetch')),
      'save.dismiss': () => actor.send({ type: 'save.dismiss' }),
      'screen.left': async () => {
        const call = last();
        actor.stop();
        expect(call.signal.aborted).toBe(true);
        // The answer may still come: it changes nothing.
        call.answer({ late: true });
        await Promise.resolve();
      },
    },
    states: {
      idle: () => {
        shows(false, null);
        expect(snap().matches('idle')).toBe(true);
        expect(snap().context.output).toBeUndefined();
      },
      saving: () => {
        shows(true, null);
        expect(snap().matches('saving')).toBe(true);
        expect(last().signal.aborted).toBe(false);
      },
      exporting: () => {
        shows(true, null);
        expect(snap().context.refreshes).toBe(false);
      },
      refreshing: () => {
        shows(true, null);
        expect(snap().matches('refreshing')).toBe(true);
        // The screen is told only once the page shows the change.
        expect(savedOutputs).toHaveLength(savedCountBefore);
        expect(refresh.pending()).toHaveLength(1);
      },
      saved: () => {
        shows(false, null);
        expect(snap().matches('saved')).toBe(true);
        expect(snap().context.output).toEqual(expectedOutput);
        expect(savedOutputs.slice(savedCountBefore)).toEqual([expectedOutput]);
      },
      exported: () => {
        shows(false, null);
        expect(snap().matches('saved')).toBe(true);
        // An export changes nothing shown: no loader ran again.
        expect(refresh.calls).toHaveLength(refreshesBefore);
        expect(savedOutputs.slice(savedCountBefore)).toEqual([expectedOutput]);
      },
      failed: () => {
        shows(false, REFUSED);
        expect(savedOutputs).toHaveLength(savedCountBefore);
      },
      left: () => {
        expect(snap().status).toBe('stopped');
        expect(savedOutputs).toHaveLength(savedCountBefore);
      },
    },
  };
}
