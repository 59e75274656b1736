import { useActorRef, useSelector } from '@xstate/react';
import { useRef } from 'react';
import { saveMachine } from '../../machines/save/save-machine.ts';
import { usePageRefresh } from './page-refresh.ts';

export interface UseSaveOptions<T> {
  /** Whether the change alters what the screens show (every save but an export): loaders run again. */
  refreshes?: boolean;
  /** What the screen does once the change is saved and shown: close a dialog, open the new record. */
  onSaved?: (output: T) => unknown;
}

export interface Save<T> {
  /** Sends a change, once: ignored while one is on its way. */
  save: (run: (signal: AbortSignal) => Promise<T>) => void;
  /** Puts the last answer or failure away. */
  dismiss: () => void;
  pending: boolean;
  /** The service's message when the last save failed. */
  error: string | null;
  /** What the last save answered, once it is saved and shown. */
  saved: { output: T } | null;
  /**
   * Whether a form whose fields differ from what it opened with (`isDirty`) holds edits that
   * leaving would lose, for the leave guard: not while they are being saved nor once saved (the
   * screen then moves on), again after a failure.
   */
  holdsEdits: (isDirty: boolean) => boolean;
}

/**
 * The app's one way to save, for every form and button that changes something: the save machine
 * (`machines/save/`) with the page's loaders as its refresh (`usePageRefresh`). The form keeps its own fields, so a
 * failure loses nothing typed; leaving the screen aborts a save on its way.
 */
export function useSave<T = unknown>({ refreshes = true, onSaved }: UseSaveOptions<T> = {}): Save<T> {
  const refresh = usePageRefresh();
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  const actor = useActorRef(
    saveMachine.provide({
      actors: { refresh },
      actions: { saved: (_, { output }) => void onSavedRef.current?.(output as T) },
    }),
  );
  const pending = useSelector(actor, (s) => s.matches('saving') || s.matches('refreshing'));
  const error = useSelector(actor, (s) => (s.matches('failed') ? s.context.error : null));
  const done = useSelector(actor, (s) => s.matches('saved'));
  const output = useSelector(actor, (s) => s.context.output as T);
  return {
    save: (run) => actor.send({ type: 'save', run, refreshes }),
    dismiss: () => actor.send({ type: 'save.dismiss' }),
    pending,
    error,
    saved: done ? { output } : null,
    holdsEdits: (isDirty) => isDirty && !pending && !done,
  };
}
