import { expect } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { readMachine } from '../../machines/read/read-machine.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const INPUT = { api: 'configuration service', id: 7 };
const PROFILE = { id: 7, name: 'Ada Installer' };
const FAILURE = new Error('HTTP 503 Service Unavailable');

/** One read the test answers by hand: what it was asked, and the AbortSignal it was given. */
interface ReadCall {
  input: unknown;
  signal: AbortSignal;
  answer: (value: unknown) => void;
  fail: (error: unknown) => void;
}

/** Events and state checks that run one path of the read model against the real machine. */
export function readModelDriver(): ModelDriver {
  const calls: ReadCall[] = [];
  const read = fromPromise<unknown, unknown>(
    ({ input, signal }) =>
      new Promise((answer, fail) => {
        calls.push({ input, signal, answer, fail });
      }),
  );
  const actor = createActor(readMachine.provide({ actors: { read } }), {
    input: INPUT,
    inspect: recordCoverage,
  }).start();
  const snap = () => actor.getSnapshot();
  const last = () => {
    const call = calls.at(-1);
    if (!call) throw new Error('nothing was read');
    return call;
  };
  /** The machine handles a settled promise in a later microtask. */
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
  /** There were `count` reads so far, each of the view's input. */
  const readsOf = (count: number) => {
    expect(calls).toHaveLength(count);
    for (const call of calls) expect(call.input).toEqual(INPUT);
  };
  /** The `count`th read is on its way, nothing shown meanwhile. */
  const reading = (count: number) => {
    expect(snap().matches('reading')).toBe(true);
    expect(snap().context.result).toBeNull();
    readsOf(count);
  };
  /** What the `count`th read answered is shown. */
  const shown = (count: number) => {
    expect(snap().matches('read')).toBe(true);
    expect(snap().context.result).toEqual({ ok: true, value: PROFILE });
    readsOf(count);
  };
  return {
    events: {
      'read.answers': async () => {
        last().answer(PROFILE);
        await settled();
      },
      'read.fails': async () => {
        last().fail(FAILURE);
        await settled();
      },
      'read.retry': () => actor.send({ type: 'read.retry' }),
      'view.leaves': () => {
        actor.stop();
      },
    },
    states: {
      reading: () => reading(1),
      read: () => shown(1),
      failed: () => {
        expect(snap().matches('failed')).toBe(true);
        expect(snap().context.result).toEqual({ ok: false, error: FAILURE });
        expect(snap().can({ type: 'read.retry' })).toBe(true);
      },
      // The failure is not shown while the next read is on its way.
      readingAgain: () => reading(2),
      readAfterRetry: () => shown(2),
      left: () => {
        expect(snap().status).toBe('stopped');
        expect(last().signal.aborted).toBe(true);
      },
    },
  };
}
