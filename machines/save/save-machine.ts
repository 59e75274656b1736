import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../../contracts/error-message.ts';

/**
 * One change sent to a service: `run` sends it, given an AbortSignal that fires when the save's
 * actor stops (the screen or dialog that sent it is left), and answers what the service answered.
 */
export interface SaveWork {
  run: (signal: AbortSignal) => Promise<unknown>;
  /** Whether the change alters what the screens show (every save but an export): loaders run again. */
  refreshes: boolean;
}

export interface SaveContext {
  /** Whether the save under way changes what the screens show (an export does not). */
  refreshes: boolean;
  /** What the last save answered, until the next one starts or it is put away. */
  output: unknown;
  /** The service's message when the last save failed. */
  error: string | null;
}

export type SaveEvent =
  /** Send a change; ignored while one is on its way, so a double click sends it once. */
  | ({ type: 'save' } & SaveWork)
  /** Put the last result (answer or failure) away. */
  | { type: 'save.dismiss' };

/**
 * The app's one way to save (create, edit, delete, role changes, access codes, exports): idle →
 * saving → refreshing (the router's loaders run again, once, so every screen shows the change) →
 * saved, or failed with the server's message. The form that sent it is never touched here, so a
 * failure keeps what was typed; a change that alters no data (an export) skips the refresh.
 * The app provides `refresh` (the router's `invalidate`) and `saved` (what a screen does next:
 * close a dialog, open the new record).
 */
export const saveMachine = setup({
  types: {
    context: {} as SaveContext,
    events: {} as SaveEvent,
  },
  actors: {
    send: fromPromise<unknown, Pick<SaveWork, 'run'>>(({ input, signal }) => input.run(signal)),
    /** Runs every loader on the page again; provided by the app (the router's `invalidate`). */
    refresh: fromPromise<void>(async () => undefined),
  },
  actions: {
    /** What the screen does once the change is saved and shown; nothing by default. */
    saved: (_, _params: { output: unknown }) => {},
  },
  guards: {
    refreshes: ({ context }) => context.refreshes,
  },
}).createMachine({
  id: 'save',
  context: { refreshes: true, output: undefined, error: null },
  initial: 'idle',
  states: {
    idle: { on: { save: 'saving' } },
    saving: {
      entry: assign({
        output: undefined,
        error: null,
        refreshes: ({ context, event }) => (event.type === 'save' ? event.refreshes : context.refreshes),
      }),
      invoke: {
        src: 'send',
        input: ({ event }) => {
          if (event.type !== 'save') throw new Error('saving needs a save event');
          return { run: event.run };
        },
        onDone: [
          {
            guard: 'refreshes',
            target: 'refreshing',
            actions: assign({ output: ({ event }) => event.output }),
          },
          { target: 'saved', actions: assign({ output: ({ event }) => event.output }) },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
      },
    },
    refreshing: {
      invoke: {
        src: 'refresh',
        // The change is saved either way: a loader that fails shows its own error.
        onDone: 'saved',
        onError: 'saved',
      },
    },
    saved: {
      entry: { type: 'saved', params: ({ context }) => ({ output: context.output }) },
      on: {
        save: 'saving',
        'save.dismiss': { target: 'idle', actions: assign({ output: undefined }) },
      },
    },
    failed: {
      on: {
        save: 'saving',
        'save.dismiss': { target: 'idle', actions: assign({ error: null }) },
      },
    },
  },
});
