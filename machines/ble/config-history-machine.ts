import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type {
  ConfigChange,
  ConfigHistoryEntry,
  ConfigHistoryRecord,
} from '../../contracts/config-history.ts';

/** A verified write still waiting in the browser to reach the configuration service. */
export interface WaitingRecord {
  id: string;
  writtenAt: string;
  transport: ConfigHistoryRecord['transport'];
  changes: ConfigChange[];
  template?: string | null;
}

/** What one load found: the service's history (null when it could not be reached) and the waiting records. */
export interface HistoryLoad {
  /** The newest page, newest received first. */
  entries: ConfigHistoryEntry[] | null;
  /** Where the next (older) page starts; null on the last page. */
  nextCursor: string | null;
  waiting: WaitingRecord[];
  /** Why the service's history could not be read, or null. */
  error: string | null;
}

/** One older page of the service's history. */
export interface OlderPage {
  entries: ConfigHistoryEntry[];
  nextCursor: string | null;
}

/** A verified write to record, as the Configure panel reports it. */
export interface HistoryWrite {
  serialNumber: string;
  transport: ConfigHistoryRecord['transport'];
  changes: ConfigChange[];
  /** The settings template the write applied, if any. */
  template?: string;
}

export interface ConfigHistoryContext {
  serial: string;
  /** Newest received first; null until the service answered once. */
  entries: ConfigHistoryEntry[] | null;
  /** Where the next older page starts; null when every entry is shown. */
  nextCursor: string | null;
  /** Records made without a reachable service, newest first. */
  waiting: WaitingRecord[];
  error: string | null;
}

export type ConfigHistoryEvent =
  | { type: 'history.written'; write: HistoryWrite }
  | { type: 'history.refresh' }
  | { type: 'history.more' };

export const HISTORY_MESSAGES = {
  unreachable: 'The configuration history could not be loaded.',
  olderUnreachable: 'The older configuration changes could not be loaded.',
} as const;

const newestFirst = (a: { writtenAt: string }, b: { writtenAt: string }) =>
  b.writtenAt.localeCompare(a.writtenAt);

/**
 * The configuration history of one device: read from the service newest first, a page at a time
 * (`history.more` adds the next older page), with the records still waiting in the browser's
 * queue shown beside it; a verified write is recorded (sent, or queued when the service cannot
 * be reached) and the history read again; coming back online sends what waited and reads again.
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
    /** Reads the older page that starts at `cursor`. */
    loadOlder: fromPromise<OlderPage, { serial: string; cursor: string }>(async () => {
      throw new Error('The loadOlder actor is not provided');
    }),
    recordWrite: fromPromise<unknown, HistoryWrite>(async () => {
      throw new Error('The recordWrite actor is not provided');
    }),
    /** Sends `history.refresh` whenever the browser comes back online. */
    watchOnline: fromCallback<ConfigHistoryEvent>(() => () => undefined),
  },
  guards: {
    hasOlder: ({ context }) => context.nextCursor !== null,
  },
}).createMachine({
  id: 'configHistory',
  context: ({ input }) => ({
    serial: input.serial,
    entries: null,
    nextCursor: null,
    waiting: [],
    error: null,
  }),
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
            nextCursor: event.output.entries ? event.output.nextCursor : context.nextCursor,
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
        'history.more': { guard: 'hasOlder', target: 'loadingOlder' },
      },
    },
    loadingOlder: {
      invoke: {
        src: 'loadOlder',
        input: ({ context }) => ({ serial: context.serial, cursor: context.nextCursor ?? '' }),
        onDone: {
          target: 'shown',
          actions: assign(({ context, event }) => {
            // A record can reach the service between two pages: show each entry once.
            const known = new Set((context.entries ?? []).map((e) => e.id));
            const older = event.output.entries.filter((e) => !known.has(e.id));
            return {
              entries: [...(context.entries ?? []), ...older],
              nextCursor: event.output.nextCursor,
              error: null,
            };
          }),
        },
        onError: { target: 'shown', actions: assign({ error: HISTORY_MESSAGES.olderUnreachable }) },
      },
      on: { 'history.written': 'recording' },
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
