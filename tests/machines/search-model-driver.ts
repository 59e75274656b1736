import { expect } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { SEARCH_DEBOUNCE_MS, searchMachine } from '../../machines/search/search-machine.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

/** One question to the service, answered by hand, and the AbortSignal it was given. */
interface Question {
  text: string;
  signal: AbortSignal;
  answer: (matches: string[]) => void;
  fail: (error: unknown) => void;
  /** Answered or failed by the test. */
  settled?: boolean;
}

const FAILED = 'The users could not be searched. Please try again.';

/** Events and state checks that run one path of the search model against the real machine. */
export function searchModelDriver(): ModelDriver {
  const clock = new SimulatedClock();
  const questions: Question[] = [];
  const actor = createActor(
    searchMachine.provide({
      actors: {
        find: fromPromise<unknown[], { text: string }>(
          ({ input, signal }) =>
            new Promise((answer, fail) => questions.push({ text: input.text, signal, answer, fail })),
        ),
      },
    }),
    { clock, inspect: recordCoverage },
  ).start();
  const snap = () => actor.getSnapshot();
  let typed = 0;
  let text = '';
  let shown: string[] = [];
  let questionsBefore = 0;
  const matchesOf = (t: string) => [`${t} Alvarez`, `${t} Brown`];
  const last = () => {
    const question = questions.at(-1);
    if (!question) throw new Error('nothing was asked');
    return question;
  };
  const type = (value: string) => {
    questionsBefore = questions.length;
    actor.send({ type: 'search.type', text: `  ${value} ` });
  };
  const shows = (results: string[], error: string | null) => {
    expect(snap().context.results).toEqual(results);
    expect(snap().matches('failed') ? snap().context.error : null).toBe(error);
  };
  /** Every question asked before the latest text was aborted: none can answer over it. */
  const onlyLatestAlive = () => {
    for (const question of questions) {
      if (question.text !== text && !question.settled) expect(question.signal.aborted).toBe(true);
    }
  };
  return {
    events: {
      'person.types': async () => {
        typed += 1;
        text = `ali${typed}`;
        const asking = snap().matches('searching') ? last() : null;
        type(text);
        if (asking) {
          // The question on its way was aborted; its answer, should it still come, is ignored.
          expect(asking.signal.aborted).toBe(true);
          asking.answer(['an early answer']);
          await Promise.resolve();
          await Promise.resolve();
        }
      },
      'person.repeats': () => type(text),
      'person.clears': () => {
        text = 'a';
        shown = [];
        type(text);
      },
      'typing.pauses': async () => {
        const before = questions.length;
        clock.increment(SEARCH_DEBOUNCE_MS - 1);
        expect(questions).toHaveLength(before);
        clock.increment(1);
        await waitFor(actor, (s) => s.matches('searching'));
      },
      'service.answers': async () => {
        shown = matchesOf(text);
        last().settled = true;
        last().answer(shown);
        await waitFor(actor, (s) => s.matches('shown'));
      },
      'service.fails': async () => {
        last().settled = true;
        last().fail(new Error(FAILED));
        await waitFor(actor, (s) => s.matches('failed'));
      },
    },
    states: {
      idle: () => {
        expect(snap().matches('idle')).toBe(true);
        expect(questions).toHaveLength(0);
        shows([], null);
      },
      waiting: () => {
        expect(snap().matches('waiting')).toBe(true);
        expect(snap().context.text).toBe(text);
        // Nothing is asked while the person types.
        expect(questions).toHaveLength(questionsBefore);
        onlyLatestAlive();
        shows(shown, null);
      },
      searching: () => {
        expect(snap().matches('searching')).toBe(true);
        expect(last().text).toBe(text);
        expect(last().signal.aborted).toBe(false);
        onlyLatestAlive();
        shows(shown, null);
      },
      shown: () => {
        expect(snap().matches('shown')).toBe(true);
        expect(snap().context.answered).toBe(text);
        shows(matchesOf(text), null);
      },
      failed: () => {
        expect(snap().matches('failed')).toBe(true);
        shows(shown, FAILED);
      },
      cleared: () => {
        expect(snap().matches('idle')).toBe(true);
        expect(questions).toHaveLength(questionsBefore);
        shows([], null);
      },
    },
  };
}
