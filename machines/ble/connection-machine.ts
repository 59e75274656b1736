import { assign, fromCallback, fromPromise, setup } from 'xstate';
import {
  type BleLink,
  type BleProblem,
  type BleTarget,
  type BleTransport,
  problemOf,
  type ReadConfiguration,
  type ReadyLink,
  type ReconnectInput,
} from './ble-types.ts';

/** While connected, the configuration is read again this often (specification §9). */
export const GET_CONFIG_INTERVAL_MS = 20_000;
/** Reconnection attempts after a dropped link before giving up. */
export const MAX_RECONNECT_ATTEMPTS = 3;
/** Wait before reconnection attempt n (1-based): 1 s, 2 s, 4 s. */
export const reconnectDelayMs = (attempt: number) => 1000 * 2 ** Math.max(0, attempt - 1);

export interface ConnectionContext {
  target: BleTarget;
  transport: BleTransport | null;
  link: BleLink | null;
  /** Id of the device chosen last, to find it again without the chooser. */
  knownId: string | null;
  config: ReadConfiguration | null;
  rssi: number | undefined;
  problem: BleProblem | null;
  attempt: number;
}

export type ConnectionEvent =
  | { type: 'ble.connect'; transport: BleTransport }
  | { type: 'ble.disconnect' }
  | { type: 'ble.reconnect' }
  | { type: 'ble.refresh' }
  | { type: 'ble.lost' }
  | { type: 'ble.rssi'; rssi: number | undefined }
  | { type: 'ble.configWritten'; config: ReadConfiguration };

/**
 * What the connection tells the machine that runs it (the Configure session): a link became ready,
 * the configuration was read again, the link dropped (reconnecting), or the link ended (the person
 * disconnected or chose another device). Alone, the machine reports to nobody: the session
 * provides the `report*` actions as `sendParent`.
 */
export type ConnectionReport =
  | { type: 'connection.ready'; link: BleLink; config: ReadConfiguration }
  | { type: 'connection.read'; config: ReadConfiguration }
  | { type: 'connection.lost' }
  | { type: 'connection.closed' };

const notProvided = (name: string) => async () => {
  throw new Error(`The ${name} actor is not provided`);
};

/**
 * The Bluetooth connection: idle → choosing → connecting → discovering → ready; a lost link →
 * reconnecting (bounded attempts with backoff, without the chooser) → ready or failed. While ready,
 * the configuration is read every {@link GET_CONFIG_INTERVAL_MS}.
 */
export const connectionMachine = setup({
  types: {
    context: {} as ConnectionContext,
    events: {} as ConnectionEvent,
    input: {} as { target: BleTarget },
  },
  actors: {
    chooseDevice: fromPromise<BleLink | null, { transport: BleTransport; target: BleTarget }>(
      notProvided('chooseDevice'),
    ),
    connectLink: fromPromise<void, { link: BleLink }>(notProvided('connectLink')),
    discoverLink: fromPromise<ReadConfiguration, { link: BleLink }>(notProvided('discoverLink')),
    readConfig: fromPromise<ReadConfiguration, { link: BleLink }>(notProvided('readConfig')),
    reconnect: fromPromise<ReadyLink, ReconnectInput>(notProvided('reconnect')),
    /** Sends `ble.lost` when the link drops and `ble.rssi` readings while it is up. */
    watchLink: fromCallback<ConnectionEvent, { link: BleLink }>(() => () => {}),
  },
  actions: {
    disconnectLink: ({ context }) => context.link?.disconnect(),
    recordProblem: assign((_, { error }: { error: unknown }) => ({ problem: problemOf(error) })),
    storeConfig: assign((_, config: ReadConfiguration) => ({ config, problem: null })),
    // Reports to the machine that runs this one; nothing when it runs alone.
    reportReady: (_, _report: { link: BleLink; config: ReadConfiguration }) => {},
    reportRead: (_, _report: { config: ReadConfiguration }) => {},
    reportLost: () => {},
    reportClosed: () => {},
  },
  guards: {
    chose: (_, { link }: { link: BleLink | null }) => link !== null,
    attemptsLeft: ({ context }) => context.attempt < MAX_RECONNECT_ATTEMPTS,
    knowsDevice: ({ context }) => context.knownId !== null && context.transport !== null,
  },
  delays: {
    getConfigInterval: GET_CONFIG_INTERVAL_MS,
    reconnectBackoff: ({ context }) => reconnectDelayMs(context.attempt),
  },
}).createMachine({
  id: 'bleConnection',
  context: ({ input }) => ({
    target: input.target,
    transport: null,
    link: null,
    knownId: null,
    config: null,
    rssi: undefined,
    problem: null,
    attempt: 0,
  }),
  initial: 'idle',
  on: {
    'ble.rssi': { actions: assign({ rssi: ({ event }) => event.rssi }) },
  },
  states: {
    idle: {
      on: {
        'ble.connect': {
          target: 'choosing',
          actions: assign({ transport: ({ event }) => event.transport, problem: null }),
        },
      },
    },
    choosing: {
      invoke: {
        src: 'chooseDevice',
        input: ({ context }) => ({ transport: context.transport as BleTransport, target: context.target }),
        onDone: [
          {
            guard: { type: 'chose', params: ({ event }) => ({ link: event.output }) },
            target: 'connecting',
            actions: assign({
              link: ({ event }) => event.output,
              knownId: ({ event }) => event.output?.id ?? null,
            }),
          },
          // The chooser was closed without a device: not an error, back to idle.
          { target: 'idle' },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'recordProblem', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    connecting: {
      invoke: {
        src: 'connectLink',
        input: ({ context }) => ({ link: context.link as BleLink }),
        onDone: 'discovering',
        onError: {
          target: 'failed',
          actions: { type: 'recordProblem', params: ({ event }) => ({ error: event.error }) },
        },
      },
      on: { 'ble.disconnect': { target: 'idle', actions: 'disconnectLink' } },
    },
    discovering: {
      invoke: {
        src: 'discoverLink',
        input: ({ context }) => ({ link: context.link as BleLink }),
        onDone: {
          target: 'ready',
          actions: { type: 'storeConfig', params: ({ event }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: [
            'disconnectLink',
            { type: 'recordProblem', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
      on: { 'ble.disconnect': { target: 'idle', actions: 'disconnectLink' } },
    },
    ready: {
      entry: [
        assign({ attempt: 0 }),
        {
          type: 'reportReady',
          params: ({ context }) => ({
            link: context.link as BleLink,
            config: context.config as ReadConfiguration,
          }),
        },
      ],
      invoke: { src: 'watchLink', input: ({ context }) => ({ link: context.link as BleLink }) },
      initial: 'waiting',
      states: {
        waiting: {
          after: { getConfigInterval: 'reading' },
          on: { 'ble.refresh': 'reading' },
        },
        reading: {
          invoke: {
            src: 'readConfig',
            input: ({ context }) => ({ link: context.link as BleLink }),
            onDone: {
              target: 'waiting',
              actions: [
                { type: 'storeConfig', params: ({ event }) => event.output },
                { type: 'reportRead', params: ({ event }) => ({ config: event.output }) },
              ],
            },
            // A lost link is reported by watchLink; anything else is shown and the next read tries again.
            onError: {
              target: 'waiting',
              actions: { type: 'recordProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
      on: {
        'ble.lost': { target: 'reconnecting', actions: [assign({ rssi: undefined }), 'reportLost'] },
        'ble.disconnect': {
          target: 'idle',
          actions: ['disconnectLink', assign({ rssi: undefined }), 'reportClosed'],
        },
        'ble.configWritten': {
          actions: { type: 'storeConfig', params: ({ event }) => event.config },
        },
      },
    },
    reconnecting: {
      entry: assign({ attempt: ({ context }) => context.attempt + 1 }),
      initial: 'waiting',
      states: {
        waiting: { after: { reconnectBackoff: 'trying' } },
        trying: {
          invoke: {
            src: 'reconnect',
            input: ({ context }) => ({
              transport: context.transport as BleTransport,
              id: context.knownId as string,
              target: context.target,
            }),
            onDone: {
              target: '#bleConnection.ready',
              actions: assign({
                link: ({ event }) => event.output.link,
                config: ({ event }) => event.output.config,
                problem: null,
              }),
            },
            onError: [
              {
                guard: 'attemptsLeft',
                target: '#bleConnection.reconnecting',
                reenter: true,
                actions: { type: 'recordProblem', params: ({ event }) => ({ error: event.error }) },
              },
              {
                target: '#bleConnection.failed',
                actions: { type: 'recordProblem', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
      },
      on: { 'ble.disconnect': { target: 'idle', actions: ['disconnectLink', 'reportClosed'] } },
    },
    failed: {
      on: {
        // Another device may be chosen: what the session knew of the last one ends here.
        'ble.connect': {
          target: 'choosing',
          actions: [assign({ transport: ({ event }) => event.transport, problem: null }), 'reportClosed'],
        },
        'ble.reconnect': { guard: 'knowsDevice', target: 'reconnecting', actions: assign({ attempt: 0 }) },
        // Disconnecting puts the failure behind the person: idle shows no stale problem.
        'ble.disconnect': {
          target: 'idle',
          actions: ['disconnectLink', assign({ problem: null }), 'reportClosed'],
        },
      },
    },
  },
});
