import { assign, fromPromise, setup } from 'xstate';

/** What the last read answered, or why it failed. */
export type ReadResult = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface ReadContext {
  /** What the view asked to read (a user's id, a device's model): the same on every retry. */
  input: unknown;
  /** The last read's answer or failure; null while reading. */
  result: ReadResult | null;
}

export type ReadEvent = { type: 'read.retry' };

/**
 * One read a view shows (a profile, a device's configuration, the devices online): reading, then
 * read or failed, and read again from the start on "Try again", with the same input. The `read`
 * actor does the I/O, given an AbortSignal that fires when the view goes. A failure is shown by
 * the view, never thrown into its render.
 */
export const readMachine = setup({
  types: {
    context: {} as ReadContext,
    events: {} as ReadEvent,
    input: {} as unknown,
  },
  actors: {
    read: fromPromise<unknown, unknown>(async () => {
      throw new Error('The read actor is not provided');
    }),
  },
}).createMachine({
  id: 'read',
  context: ({ input }) => ({ input, result: null }),
  initial: 'reading',
  states: {
    reading: {
      entry: assign({ result: null }),
      invoke: {
        src: 'read',
        input: ({ context }: { context: ReadContext }) => context.input,
        onDone: {
          target: 'read',
          actions: assign({ result: ({ event }) => ({ ok: true, value: event.output }) }),
        },
        onError: {
          target: 'failed',
          actions: assign({ result: ({ event }) => ({ ok: false, error: event.error }) }),
        },
      },
    },
    read: {},
    failed: {
      on: { 'read.retry': 'reading' },
    },
  },
});
