import { assign, fromPromise, setup } from 'xstate';

/** The longest note an acknowledgement takes (the service's limit). */
export const ACK_NOTE_MAX = 500;

/** Events: open the dialog for an alarm, close it, send the note. */
export type AlarmAcknowledgeEvent =
  | { type: 'ack.open'; alarmId: number }
  | { type: 'ack.cancel' }
  | { type: 'ack.submit'; note: string };

export interface AlarmAcknowledgeContext {
  /** The alarm whose dialog is open; null when none is. */
  alarmId: number | null;
  /** What is wrong with the note (blank), shown at the field. */
  noteError: string | null;
  /** Why the service refused the last try, in its words. */
  error: string | null;
  /** The alarm acknowledged last, so the list can say so. */
  acknowledged: number | null;
}

/**
 * Acknowledging alarms from a list: a person opens one alarm's dialog, writes why, and sends it.
 * A blank note is refused here (the service would refuse it too); a failure keeps the dialog open
 * with the service's message and the note as typed. Once acknowledged, the page's loaders run
 * again (`refresh`, as after every save), and then the dialog closes.
 */
export const alarmAcknowledgeMachine = setup({
  types: {
    context: {} as AlarmAcknowledgeContext,
    events: {} as AlarmAcknowledgeEvent,
  },
  actors: {
    /** Acknowledges `id` with `note`. */
    acknowledge: fromPromise<void, { id: number; note: string }>(async () => undefined),
    /** Runs every loader on the page again, as after any save; provided by the app. */
    refresh: fromPromise<void>(async () => undefined),
  },
  actions: {
    closeAcknowledged: assign(({ context }) => ({
      acknowledged: context.alarmId,
      alarmId: null,
      error: null,
    })),
  },
  guards: {
    noteIsBlank: ({ event }) => event.type === 'ack.submit' && event.note.trim() === '',
  },
}).createMachine({
  id: 'alarmAcknowledge',
  context: { alarmId: null, noteError: null, error: null, acknowledged: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'ack.open': {
          target: 'editing',
          actions: assign({ alarmId: ({ event }) => event.alarmId, noteError: null, error: null }),
        },
      },
    },
    editing: {
      on: {
        'ack.cancel': { target: 'idle', actions: assign({ alarmId: null, noteError: null, error: null }) },
        'ack.submit': [
          {
            guard: 'noteIsBlank',
            actions: assign({
              noteError: 'Write a note: what is being done about it, or why it can wait.',
              error: null,
            }),
          },
          { target: 'submitting', actions: assign({ noteError: null, error: null }) },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'acknowledge',
        input: ({ context, event }) => ({
          id: context.alarmId ?? 0,
          note: event.type === 'ack.submit' ? event.note.trim() : '',
        }),
        onDone: 'refreshing',
        onError: {
          target: 'editing',
          actions: assign({
            error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)),
          }),
        },
      },
    },
    // The dialog stays busy until the lists show the alarm acknowledged.
    refreshing: {
      invoke: {
        src: 'refresh',
        // The alarm is acknowledged either way: a loader that fails shows its own error.
        onDone: { target: 'idle', actions: 'closeAcknowledged' },
        onError: { target: 'idle', actions: 'closeAcknowledged' },
      },
    },
  },
});
