import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { onlineDevicesMachine } from '../../machines/devices-online/online-devices-machine.ts';

/** The machine over a fake call that answers each poll in turn (a string is a failure). */
function withAnswers(answers: (string[] | string)[]) {
  let call = 0;
  const actor = createActor(
    onlineDevicesMachine.provide({
      actors: {
        fetchOnline: fromPromise(async () => {
          const answer = answers[Math.min(call, answers.length - 1)];
          call += 1;
          if (typeof answer === 'string') throw new Error(answer);
          return answer ?? [];
        }),
      },
    }),
  );
  actor.start();
  return { actor, calls: () => call };
}

describe('the online devices poll', () => {
  it('asks when the screen opens and holds the serial numbers online', async () => {
    const { actor } = withAnswers([['HX5K-24-000133']]);
    const snapshot = await waitFor(actor, (s) => s.matches('waiting'));
    expect(snapshot.context).toEqual({ online: ['HX5K-24-000133'], stale: false });
    actor.stop();
  });

  it('keeps what it knew through a failed poll, marked stale, and recovers on the next', async () => {
    const { actor, calls } = withAnswers([['HX5K-24-000133'], 'network down', ['BX10-25-000147']]);
    await waitFor(actor, (s) => s.matches('waiting'));
    actor.send({ type: 'online.refresh' });
    const failed = await waitFor(actor, (s) => s.matches('waiting') && calls() === 2);
    expect(failed.context).toEqual({ online: ['HX5K-24-000133'], stale: true });
    actor.send({ type: 'online.refresh' });
    const again = await waitFor(actor, (s) => s.matches('waiting') && calls() === 3);
    expect(again.context).toEqual({ online: ['BX10-25-000147'], stale: false });
    actor.stop();
  });
});
