import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../../contracts/error-message.ts';

/** How long typing must pause before a search goes out. */
export const SEARCH_DEBOUNCE_MS = 300;
/** Fewer characters than this search nothing. */
export const SEARCH_MIN_LENGTH = 2;

export interface SearchContext {
  /** What was typed, trimmed. */
  text: string;
  /** The matches of the latest search answered; kept while the next one is on its way. */
  results: unknown[];
  /** The text those results answer. */
  answered: string | null;
  /** Why the latest search failed. */
  error: string | null;
}

export type SearchEvent =
  /** The person typed: the whole text of the field. */
  { type: 'search.type'; text: string };

/**
 * A search as the person types: it waits for typing to pause ({@link SEARCH_DEBOUNCE_MS}), then
 * asks; typing again meanwhile stops the question on its way (its AbortSignal fires, and its answer,
 * should it come, is ignored), so the answer shown is always the latest text's. Text shorter than
 * {@link SEARCH_MIN_LENGTH} asks nothing and clears the matches. The app provides `find`.
 */
export const searchMachine = setup({
  types: {
    context: {} as SearchContext,
    events: {} as SearchEvent,
  },
  actors: {
    find: fromPromise<unknown[], { text: string }>(async () => []),
  },
  delays: { debounce: SEARCH_DEBOUNCE_MS },
  guards: {
    longEnough: ({ event }) => event.text.trim().length >= SEARCH_MIN_LENGTH,
    unchanged: ({ context, event }) => event.text.trim() === context.text,
  },
}).createMachine({
  id: 'search',
  context: { text: '', results: [], answered: null, error: null },
  initial: 'idle',
  on: {
    'search.type': [
      // The field repeats its text (a pick fills it with the label): nothing new to ask.
      { guard: 'unchanged' },
      {
        guard: 'longEnough',
        target: '.waiting',
        reenter: true,
        actions: assign({ text: ({ event }) => event.text.trim() }),
      },
      {
        target: '.idle',
        actions: assign({ text: ({ event }) => event.text.trim(), results: [], answered: null, error: null }),
      },
    ],
  },
  states: {
    idle: {},
    waiting: { after: { debounce: 'searching' } },
    searching: {
      invoke: {
        src: 'find',
        input: ({ context }) => ({ text: context.text }),
        onDone: {
          target: 'shown',
          actions: assign({
            results: ({ event }) => event.output,
            answered: ({ context }) => context.text,
            error: null,
          }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
      },
    },
    shown: {},
    failed: {},
  },
});
