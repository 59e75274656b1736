import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { saveMachine } from '../../machines/save/save-machine.ts';
import { ApiError } from '../../src/api/api-error.ts';

/** The machine with a refresh that counts its runs and a `saved` that records what it was told. */
function saver() {
  let refreshes = 0;
  const told: unknown[] = [];
  const actor = createActor(
    saveMachine.provide({
      actors: {
        refresh: fromPromise(async () => {
          refreshes += 1;
        }),
      },
      actions: { saved: (_, { output }) => void told.push(output) },
    }),
  ).start();
  return { actor, told, refreshes: () => refreshes };
}

describe('one way to save', () => {
  it('sends a change once however often it is pressed, reloads the page once, then tells the screen', async () => {
    const { actor, told, refreshes } = saver();
    let sent = 0;
    let answer: (value: unknown) => void = () => {};
    const run = () => {
      sent += 1;
      return new Promise((resolve) => {
        answer = resolve;
      });
    };
    actor.send({ type: 'save', refreshes: true, run });
    actor.send({ type: 'save', refreshes: true, run });
    expect(sent).toBe(1);
    expect(told).toEqual([]);
    answer({ id: 71 });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(refreshes()).toBe(1);
    expect(told).toEqual([{ id: 71 }]);
    actor.stop();
  });

  it("shows the service's message on failure and saves again when asked", async () => {
    const { actor, told } = saver();
    const refused = new ApiError('A user with this e-mail already exists.', {
      status: 409,
      code: 'email_taken',
      path: '/fleet/users/create-installer',
    });
    actor.send({ type: 'save', refreshes: true, run: () => Promise.reject(refused) });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toBe('A user with this e-mail already exists.');
    expect(told).toEqual([]);
    actor.send({ type: 'save', refreshes: true, run: async () => 'ok' });
    const saved = await waitFor(actor, (s) => s.matches('saved'));
    expect(saved.context.error).toBeNull();
    expect(told).toEqual(['ok']);
    actor.stop();
  });

  it('reloads nothing for an export', async () => {
    const { actor, refreshes } = saver();
    actor.send({ type: 'save', refreshes: false, run: async () => undefined });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(refreshes()).toBe(0);
    actor.stop();
  });

  it('aborts the call when the screen that sent it is left', () => {
    const { actor } = saver();
    let given: AbortSignal | null = null;
    actor.send({
      type: 'save',
      refreshes: true,
      run: (signal) => {
        given = signal;
        return new Promise(() => {});
      },
    });
    expect(given).not.toBeNull();
    expect((given as unknown as AbortSignal).aborted).toBe(false);
    actor.stop();
    expect((given as unknown as AbortSignal).aborted).toBe(true);
  });
});
