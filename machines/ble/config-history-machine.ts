import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { ConfigChange, ConfigHistoryEntry } from '../../contracts/config-history.ts';

/** A verified write still waiting in the browser to reach the configuration service. */
export interface WaitingRecord {
  id: string;
  writtenAt: string;
  transport: ConfigHistoryEntry['transport'];
  changes: ConfigChange[];
}

/** What one load found: the service's history (null when it could not be reached) and the waiting records. */
export interface HistoryLoad {
  entries: ConfigHistoryEntry[] | null;
  waiting: WaitingRecord[];
  /** Why the service's history could not be read, or null. */
  error: string | null;
}

/** A verified write to record, as the Configure panel reports it. */
export interface HistoryWrite {
  serialNumber: string;
  transport: ConfigHistoryEntry['transport'];
  changes: ConfigChange[];
}

export interface ConfigHistoryContext {
  serial: string;
  /** Newest first; null until the service answered once. */
  entries: ConfigHistoryEntry[] | null;
  /** Records made without a reachable service, newest first. */
  waiting: WaitingRecord[];
  error: string | null;
}

export type ConfigHistoryEvent =
  | { type: 'history.written'; write: HistoryWrite }
  | { type: 'history.refresh' };

export const HISTORY_MESSAGES = {
  unreachable: 'The configuration history could not be loaded.',
} as const;

const newestFirst = (a: { writtenAt: string }, b: { writtenAt: string }) =>
  b.writtenAt.localeCompare(a.writtenAt);

/**
 * The configuration history of one device: read from the service newest first, with the records
 * still waiting in the browser's queue shown beside it; a verified write is recorded (sent, or
 * queued when the service cannot be reached) and the history read again; coming back online
 * sends what waited and reads again.
 */
export const configHistoryMachine = setup({
  types: {
    context: {} as ConfigHistoryContext,
    events: {} as ConfigHistoryEvent,
    input: {} as { serial: string },
  },
  actors: {
    /** Sends what waits, then reads the history; resolves even when the service cannot be reached. */
    loadHistory: fromPromise<HistoryLoad, { serial: string }>(async () => {
      throw new Error('The loadHistory actor is not provided');
    }),
    recordWrite: fromPromise<unknown, HistoryWrite>(async () => {
      throw new Error('The recordWrite actor is not provided');
    }),
    /** Sends `history.refresh` whenever the browser comes back online. */
    watchOnline: fromCallback<ConfigHistoryEvent>(() => () => undefined),
  },
}).createMachine({
  id: 'configHistory',
  context: ({ input }) => ({ serial: input.serial, entries: null, waiting: [], error: null }),
  invoke: { src: 'watchOnline' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadHistory',
        input: ({ context }) => ({ serial: context.serial }),
        onDone: {
          target: 'shown',
          actions: assign(({ context, event }) => ({
            entries: event.output.entries ?? context.entries,
            waiting: [...event.output.waiting].sort(newestFirst),
            error: event.output.error,
          })),
        },
        onError: {
          target: 'shown',
          actions: assign({ error: HISTORY_MESSAGES.unreachable }),
        },
      },
      on: { 'history.written': { target: 'recording', reenter: true } },
    },
    shown: {
      on: {
        'history.refresh': 'loading',
        'history.written': 'recording',
      },
    },
    recording: {
      invoke: {
        src: 'recordWrite',
        input: ({ event }) => {
          if (event.type !== 'history.written') throw new Error('recording needs a written event');
          return event.write;
        },
        // Sent or queued, the history is read again: a queued record shows as waiting.
        onDone: 'loading',
        onError: 'loading',
      },
      // Another write while one is being recorded starts its own recording; the first one's promise
      // still runs to the end (the queue keeps it), so no record is lost.
      on: { 'history.written': { target: 'recording', reenter: true } },
    },
  },
});
