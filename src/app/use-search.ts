import { useActorRef, useSelector } from '@xstate/react';
import { useRef } from 'react';
import { fromPromise } from 'xstate';
import { searchMachine } from '../../machines/search/search-machine.ts';

export interface Search<T> {
  /** The whole text of the field, on every keystroke. */
  type: (text: string) => void;
  /** The matches of the latest text answered (kept while the next question is on its way). */
  results: T[];
  /** Waiting for typing to pause, or for the answer. */
  searching: boolean;
  /** Why the latest search failed. */
  error: string | null;
}

/**
 * The app's one way to search as the person types: the search machine (`machines/search/`), which
 * waits for typing to pause and aborts the question on its way when the text changes, so an early
 * answer never replaces a later one. `find` asks the service, passing on the AbortSignal.
 */
export function useSearch<T>(find: (text: string, signal: AbortSignal) => Promise<T[]>): Search<T> {
  const findRef = useRef(find);
  findRef.current = find;
  const actor = useActorRef(
    searchMachine.provide({
      actors: {
        find: fromPromise<unknown[], { text: string }>(({ input, signal }) =>
          findRef.current(input.text, signal),
        ),
      },
    }),
  );
  const results = useSelector(actor, (s) => s.context.results as T[]);
  const searching = useSelector(actor, (s) => s.matches('waiting') || s.matches('searching'));
  const error = useSelector(actor, (s) => (s.matches('failed') ? s.context.error : null));
  return { type: (text) => actor.send({ type: 'search.type', text }), results, searching, error };
}
