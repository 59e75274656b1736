import { type ActorRefFrom, assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../../contracts/error-message.ts';
import type { OnlineDevice } from '../../contracts/service-comms.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import { EMPTY_DRAFT } from './compose-frame.ts';
import {
  type DebuggerContext,
  type DebuggerEvent,
  type DebuggerInput,
  entry,
  isOnline,
  logged,
  recompose,
} from './debugger-context.ts';
import type { DebugDevice, SendInput } from './debugger-types.ts';
import { ExchangeFailure } from './debugger-types.ts';
import { type LogEntry, parseLogFile } from './exchange-log.ts';
import { readAnswer } from './read-answer.ts';

export type { DebuggerContext, DebuggerEvent, DebuggerInput } from './debugger-context.ts';
export { isOnline } from './debugger-context.ts';

/** How long a command waits for its answer before the console gives up on it. */
export const ANSWER_TIMEOUT_MS = 10_000;

/** Typing in the search waits this long for the next key before it asks the server. */
export const SEARCH_DELAY_MS = 250;

/** After every change to the log: keep it for the next visit. */
const PERSIST = {
  type: 'persistLog',
  params: ({ context }: { context: DebuggerContext }) => ({ log: context.log }),
} as const;

/**
 * The Remote Debugger console: find a device, choose how to reach it (remote when it is online,
 * Bluetooth, or the demo device), compose a frame, send it, and read the answer or the reason there
 * is none. Every exchange is a line in a bounded log. A device that is not online is reached only
 * the way the person chooses: never the demo device in its place unasked. A frame that cannot be
 * built (bad hex, a payload too long) cannot be sent: `debugger.send` waits for a sound frame.
 */
export const remoteDebuggerMachine = setup({
  types: {
    context: {} as DebuggerContext,
    events: {} as DebuggerEvent,
    input: {} as DebuggerInput,
  },
  actors: {
    searchDevices: fromPromise<DebugDevice[], { query: string }>(async () => {
      throw new Error('The searchDevices actor is not provided');
    }),
    fetchOnline: fromPromise<OnlineDevice[] | null>(async () => {
      throw new Error('The fetchOnline actor is not provided');
    }),
    loadProduct: fromPromise<DeviceProduct, { modelId: string }>(async () => {
      throw new Error('The loadProduct actor is not provided');
    }),
    sendFrame: fromPromise<Uint8Array, SendInput>(async () => {
      throw new Error('The sendFrame actor is not provided');
    }),
  },
  actions: {
    /** Keeps the log for the next visit; the screen provides where. */
    persistLog: (_, _params: { log: LogEntry[] }) => {},
  },
  delays: {
    answerTimeout: ({ context }) => context.timeoutMs,
    searchDelay: SEARCH_DELAY_MS,
  },
  guards: {
    pathAllowed: ({ context, event }) =>
      event.type === 'debugger.selectPath' &&
      (event.path !== 'remote' ||
        (context.device !== null && isOnline(context.online, context.device.serialNumber))),
    /** A path chosen, the device's catalogue entry loaded, and a frame built from the draft. */
    canSend: ({ context }) =>
      context.path !== null && context.product !== null && context.composed?.ok === true,
  },
}).createMachine({
  id: 'remoteDebugger',
  type: 'parallel',
  context: ({ input }) => ({
    codec: input.codec,
    query: '',
    devices: [],
    searchProblem: null,
    online: null,
    onlineProblem: null,
    device: null,
    product: null,
    productProblem: null,
    path: null,
    draft: EMPTY_DRAFT,
    composed: null,
    sending: null,
    lastAnswer: null,
    log: input.log ?? [],
    logProblem: null,
    timeoutMs: input.timeoutMs ?? ANSWER_TIMEOUT_MS,
    sequence: 0,
  }),
  on: {
    'debugger.clearLog': {
      actions: [assign({ log: [] }), { type: 'persistLog', params: { log: [] } }],
    },
    'debugger.loadLog': [
      {
        guard: ({ event }) => parseLogFile(event.text).ok,
        actions: [
          assign(({ event }) => {
            const loaded = parseLogFile(event.text);
            return { log: loaded.ok ? loaded.entries : [], logProblem: null };
          }),
          PERSIST,
        ],
      },
      {
        actions: assign(({ event }) => {
          const loaded = parseLogFile(event.text);
          return { logProblem: loaded.ok ? null : loaded.message };
        }),
      },
    ],
    'debugger.dismissLogProblem': { actions: assign({ logProblem: null }) },
  },
  states: {
    search: {
      initial: 'fetching',
      on: {
        'debugger.search': { target: '.waiting', actions: assign({ query: ({ event }) => event.query }) },
      },
      states: {
        waiting: { after: { searchDelay: 'fetching' } },
        fetching: {
          invoke: {
            src: 'searchDevices',
            input: ({ context }) => ({ query: context.query.trim() }),
            onDone: {
              target: 'idle',
              actions: assign({ devices: ({ event }) => event.output, searchProblem: null }),
            },
            onError: {
              target: 'idle',
              actions: assign({
                searchProblem: ({ event }) =>
                  `The devices could not be searched: ${errorMessage(event.error)}`,
              }),
            },
          },
        },
        idle: {},
      },
    },
    online: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'fetchOnline',
            onDone: [
              {
                guard: ({ event }) => event.output === null,
                target: 'unavailable',
                actions: assign({ online: null }),
              },
              {
                target: 'known',
                actions: assign({ online: ({ event }) => event.output, onlineProblem: null }),
              },
            ],
            onError: {
              target: 'failed',
              actions: assign({
                onlineProblem: ({ event }) =>
                  `Which devices are online could not be read: ${errorMessage(event.error)}`,
              }),
            },
          },
        },
        known: { on: { 'debugger.refreshOnline': 'loading' } },
        unavailable: { on: { 'debugger.refreshOnline': 'loading' } },
        failed: { on: { 'debugger.refreshOnline': 'loading' } },
      },
    },
    console: {
      initial: 'noDevice',
      states: {
        noDevice: {},
        loadingProduct: {
          invoke: {
            src: 'loadProduct',
            input: ({ context }) => ({ modelId: context.device?.modelId ?? '' }),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => {
                const next = { ...context, product: event.output };
                return { product: event.output, composed: recompose(next, context.draft) };
              }),
            },
            onError: {
              target: 'productFailed',
              actions: assign({
                productProblem: ({ event }) =>
                  `This device's catalogue entry could not be loaded: ${errorMessage(event.error)}`,
              }),
            },
          },
        },
        productFailed: {},
        ready: {
          initial: 'idle',
          on: {
            'debugger.opcode': {
              actions: assign(({ context, event }) => {
                const draft = { ...context.draft, opcodeText: event.text };
                return { draft, composed: recompose(context, draft) };
              }),
            },
            'debugger.payloadMode': {
              actions: assign(({ context, event }) => {
                const draft = { ...context.draft, payloadMode: event.mode };
                return { draft, composed: recompose(context, draft) };
              }),
            },
            'debugger.payloadHex': {
              actions: assign(({ context, event }) => {
                const draft = { ...context.draft, payloadHex: event.text };
                return { draft, composed: recompose(context, draft) };
              }),
            },
            'debugger.field': {
              actions: assign(({ context, event }) => {
                const fieldValues = { ...context.draft.fieldValues, [event.name]: event.value };
                const draft = { ...context.draft, fieldValues };
                return { draft, composed: recompose(context, draft) };
              }),
            },
          },
          states: {
            idle: {
              on: {
                'debugger.selectPath': {
                  guard: 'pathAllowed',
                  actions: assign({ path: ({ event }) => event.path }),
                },
                'debugger.send': {
                  guard: 'canSend',
                  target: 'sending',
                  actions: assign({
                    sending: ({ context }) =>
                      context.composed?.ok && context.path
                        ? { frame: context.composed.frame, path: context.path }
                        : null,
                  }),
                },
              },
            },
            sending: {
              invoke: {
                src: 'sendFrame',
                input: ({ context }) => ({
                  // Set with the frame by `debugger.send`, whose guard wants a chosen path.
                  path: context.sending?.path ?? 'remote',
                  serialNumber: context.device?.serialNumber ?? '',
                  product: context.product as DeviceProduct,
                  frame: context.sending?.frame ?? new Uint8Array(),
                }),
                onDone: {
                  target: 'idle',
                  actions: [
                    assign(({ context, event }) => {
                      const sent = context.sending?.frame ?? new Uint8Array();
                      const report = readAnswer(
                        context.codec,
                        context.product as DeviceProduct,
                        event.output,
                        sent,
                      );
                      const line = entry(context, {
                        outcome: report.outcome,
                        message: report.message,
                        sent: Array.from(sent),
                        answer: Array.from(event.output),
                      });
                      return {
                        ...logged(context, line),
                        lastAnswer: { frame: event.output, report },
                        sending: null,
                      };
                    }),
                    PERSIST,
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: [
                    assign(({ context, event }) => {
                      const failure = event.error instanceof ExchangeFailure ? event.error : null;
                      const line = entry(context, {
                        outcome: failure?.outcome ?? 'failed',
                        message: errorMessage(event.error),
                        sent: Array.from(context.sending?.frame ?? []),
                      });
                      return { ...logged(context, line), sending: null };
                    }),
                    PERSIST,
                  ],
                },
              },
              after: {
                answerTimeout: {
                  target: 'idle',
                  actions: [
                    assign(({ context }) => {
                      const seconds = Math.round(context.timeoutMs / 100) / 10;
                      const line = entry(context, {
                        outcome: 'timeout',
                        message: `No answer from the device within ${seconds} s.`,
                        sent: Array.from(context.sending?.frame ?? []),
                      });
                      return { ...logged(context, line), sending: null };
                    }),
                    PERSIST,
                  ],
                },
              },
              on: {
                'debugger.cancel': {
                  target: 'idle',
                  actions: [
                    assign(({ context }) => {
                      const line = entry(context, {
                        outcome: 'failed',
                        message: 'Cancelled before the device answered.',
                        sent: Array.from(context.sending?.frame ?? []),
                      });
                      return { ...logged(context, line), sending: null };
                    }),
                    PERSIST,
                  ],
                },
                'debugger.selectDevice': {},
              },
            },
          },
        },
      },
      on: {
        'debugger.selectDevice': {
          target: '.loadingProduct',
          actions: assign(({ context, event }) => ({
            device: event.device,
            product: null,
            productProblem: null,
            composed: null,
            lastAnswer: null,
            // Remote when it is online; otherwise the person chooses Bluetooth or the demo device.
            path: isOnline(context.online, event.device.serialNumber) ? ('remote' as const) : null,
          })),
        },
      },
    },
  },
});

/** A running console, as the view pieces read from and send to it. */
export type RemoteDebuggerRef = ActorRefFrom<typeof remoteDebuggerMachine>;
