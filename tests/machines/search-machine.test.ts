import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { SEARCH_DEBOUNCE_MS, searchMachine } from '../../machines/search/search-machine.ts';

/** The machine on a simulated clock over a service whose answers the test holds back and lets go. */
function searcher() {
  const clock = new SimulatedClock();
  const asked: { text: string; signal: AbortSignal; answer: (matches: string[]) => void }[] = [];
  const actor = createActor(
    searchMachine.provide({
      actors: {
        find: fromPromise<unknown[], { text: string }>(
          ({ input, signal }) => new Promise((answer) => asked.push({ text: input.text, signal, answer })),
        ),
      },
    }),
    { clock },
  ).start();
  const type = (text: string) => actor.send({ type: 'search.type', text });
  return { actor, clock, asked, type };
}

describe('search as you type', () => {
  it('asks once typing pauses, not on every keystroke', () => {
    const { actor, clock, asked, type } = searcher();
    for (const text of ['a', 'al', 'ali', 'alic', 'alice']) {
      type(text);
      clock.increment(SEARCH_DEBOUNCE_MS - 1);
    }
    expect(asked).toEqual([]);
    clock.increment(1);
    expect(asked.map((q) => q.text)).toEqual(['alice']);
    actor.stop();
  });

  it('ignores an early answer held back until after the latest one: the latest text wins', async () => {
    const { actor, clock, asked, type } = searcher();
    type('al');
    clock.increment(SEARCH_DEBOUNCE_MS);
    type('alvarez');
    clock.increment(SEARCH_DEBOUNCE_MS);
    const [early, latest] = asked;
    if (!early || !latest) throw new Error('two questions were expected');
    expect(early.signal.aborted).toBe(true);
    expect(latest.signal.aborted).toBe(false);
    const seen: unknown[] = [];
    actor.subscribe((s) => seen.push(s.context.results));
    latest.answer(['Ana Alvarez']);
    await waitFor(actor, (s) => s.matches('shown'));
    early.answer(['Al Brown', 'Alma Chen', 'Ana Alvarez']);
    // The held-back answer is settled before the next question's answer, which is awaited: had the
    // early one been taken, a snapshot on the way would hold its matches.
    type('alvarez ana');
    clock.increment(SEARCH_DEBOUNCE_MS);
    asked.at(-1)?.answer(['Ana Alvarez', 'Anabel Alvarez']);
    const last = await waitFor(actor, (s) => s.matches('shown') && s.context.answered === 'alvarez ana');
    expect(last.context.results).toEqual(['Ana Alvarez', 'Anabel Alvarez']);
    expect(seen).not.toContainEqual(['Al Brown', 'Alma Chen', 'Ana Alvarez']);
    actor.stop();
  });

  it('asks nothing for fewer than two characters and clears the matches', async () => {
    const { actor, clock, asked, type } = searcher();
    type(' ali ');
    clock.increment(SEARCH_DEBOUNCE_MS);
    expect(asked.map((q) => q.text)).toEqual(['ali']);
    asked[0]?.answer(['Alice Martin']);
    await waitFor(actor, (s) => s.matches('shown'));
    type('a');
    clock.increment(SEARCH_DEBOUNCE_MS);
    expect(asked).toHaveLength(1);
    expect(actor.getSnapshot().context.results).toEqual([]);
    actor.stop();
  });
});
