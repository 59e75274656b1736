import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { SmpLink, SmpTransport } from '../../src/ble/smp-link.ts';

/** An image the device may be updated to, as the service lists it. */
export interface FirmwareOffer {
  id: number;
  version: string;
}

/** The image, downloaded and checked by the Wasm parser: ready to send. */
export interface PreparedImage {
  bytes: Uint8Array;
  /** SHA-256 of the whole file: names the upload, so that the device can resume it. */
  fileSha: Uint8Array;
  /** The image's own hash (its hash TLV): how SMP names the image in a slot. */
  hash: Uint8Array;
  version: string;
}

/** What the device said of itself before the upload: its buffer, and the version it runs. */
export interface DeviceFacts {
  bufSize: number;
  running: string;
}

export interface UploadInput {
  link: SmpLink;
  image: PreparedImage;
  bufSize: number;
}

export type UploadReport =
  /** The device answered the upload's first chunk: it stands at `off` (more than 0 when it resumes). */
  | { type: 'upload.started'; off: number; at: number }
  /** The device acknowledged bytes up to `off`, at the time `at` (ms). */
  | { type: 'upload.progress'; off: number; at: number }
  | { type: 'upload.done' }
  | { type: 'upload.lost' }
  | { type: 'upload.failed'; message: string };

export type BleUpdateEvent =
  | { type: 'update.start'; transport: SmpTransport }
  | { type: 'update.retry' }
  | { type: 'update.cancel' }
  | { type: 'update.dismiss' }
  | UploadReport;

export interface BleUpdateInput {
  serial: string;
  /** Devices advertise their serial; the chooser offers those starting with the model's prefix. */
  namePrefix: string;
  offer: FirmwareOffer;
}

/** Where the upload is: bytes acknowledged, of how many, and how fast since it last (re)started. */
export interface UploadProgress {
  sent: number;
  total: number;
  /** Bytes per second since the upload last started or resumed; null until two reports. */
  rate: number | null;
  /** Offset and time the rate is measured from. */
  since: { off: number; at: number } | null;
}

export interface BleUpdateContext extends BleUpdateInput {
  transport: SmpTransport | null;
  link: SmpLink | null;
  image: PreparedImage | null;
  facts: DeviceFacts | null;
  progress: UploadProgress;
  /** Times the link dropped during the upload, and the offset the device said it stood at when it went on. */
  drops: number;
  resumedFrom: number | null;
  /** The version the device runs after the update (read after it restarted). */
  after: string | null;
  problem: string | null;
}

export const UPDATE_MESSAGES = {
  reverted: (running: string) =>
    `The device started again with its old firmware ${running}: the new firmware did not start. Nothing else changed.`,
  notBack:
    'The device did not come back after its restart. If the new firmware does not start, the device goes back to its old firmware at its next start.',
  unconfirmed:
    'The new firmware runs but could not be confirmed: the device goes back to its old firmware at its next start.',
  lost: (percent: number) =>
    `The connection was lost at ${percent} % and could not be made again. The device keeps what it received: update again to go on from there.`,
} as const;

const noActor = (name: string) => async () => {
  throw new Error(`The ${name} actor is not provided`);
};

const percentOf = (p: UploadProgress) => (p.total > 0 ? Math.floor((p.sent * 100) / p.total) : 0);

/**
 * One device's firmware update over Bluetooth (SMP): the image downloaded and checked by the Wasm
 * parser before anything is sent, the device's state and buffer read, the image uploaded in chunks
 * sized from that buffer (a dropped link reconnects and resumes from the device's own offset),
 * marked for test, the device reset and reconnected, its running version read, then confirmed.
 * What fails is said plainly; MCUboot puts the old image back by itself when the new one is not
 * confirmed, and the messages say so.
 */
export const bleUpdateMachine = setup({
  types: {
    context: {} as BleUpdateContext,
    events: {} as BleUpdateEvent,
    input: {} as BleUpdateInput,
  },
  actors: {
    prepare: fromPromise<PreparedImage, { offer: FirmwareOffer }>(noActor('prepare')),
    connect: fromPromise<SmpLink | null, { transport: SmpTransport; namePrefix: string }>(noActor('connect')),
    inspect: fromPromise<DeviceFacts, { link: SmpLink }>(noActor('inspect')),
    upload: fromCallback<BleUpdateEvent, UploadInput>(() => {
      throw new Error('The upload actor is not provided');
    }),
    /** Connects the same device again; retries for a while (a device restarting takes seconds). */
    reconnect: fromPromise<void, { link: SmpLink }>(noActor('reconnect')),
    markForTest: fromPromise<void, { link: SmpLink; hash: Uint8Array }>(noActor('markForTest')),
    reset: fromPromise<void, { link: SmpLink }>(noActor('reset')),
    /** The version the device runs now. */
    readRunning: fromPromise<string, { link: SmpLink }>(noActor('readRunning')),
    confirm: fromPromise<void, { link: SmpLink }>(noActor('confirm')),
    /** Keeps the screen awake (Screen Wake Lock) while the image goes over; nothing where there is none. */
    keepAwake: fromCallback(() => () => {}),
  },
  actions: {
    fail: assign({ problem: (_, message: string) => message }),
    disconnect: ({ context }) => context.link?.disconnect(),
    /** Bytes acknowledged, and the rate since the upload last (re)started. */
    advance: assign({
      progress: ({ context, event }) => {
        if (event.type !== 'upload.started' && event.type !== 'upload.progress') return context.progress;
        const since = context.progress.since ?? { off: event.off, at: event.at };
        const elapsed = event.at - since.at;
        return {
          ...context.progress,
          sent: event.off,
          since,
          rate: elapsed > 0 ? ((event.off - since.off) * 1000) / elapsed : context.progress.rate,
        };
      },
    }),
    restartProgress: assign({
      progress: ({ context }) => ({ ...context.progress, rate: null, since: null }),
    }),
  },
  guards: {
    chose: (_, link: SmpLink | null) => link !== null,
    runsNew: ({ context }, running: string) => running === context.image?.version,
  },
}).createMachine({
  id: 'bleFirmwareUpdate',
  context: ({ input }) => ({
    ...input,
    transport: null,
    link: null,
    image: null,
    facts: null,
    progress: { sent: 0, total: 0, rate: null, since: null },
    drops: 0,
    resumedFrom: null,
    after: null,
    problem: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'update.start': {
          target: 'preparing',
          actions: assign({ transport: ({ event }) => event.transport, problem: null }),
        },
      },
    },
    preparing: {
      invoke: {
        src: 'prepare',
        input: ({ context }) => ({ offer: context.offer }),
        onDone: {
          target: 'connecting',
          actions: assign({
            image: ({ event }) => event.output,
            progress: ({ event }) => ({ sent: 0, total: event.output.bytes.length, rate: null, since: null }),
            drops: 0,
            resumedFrom: null,
          }),
        },
        onError: {
          target: 'refused',
          actions: { type: 'fail', params: ({ event }) => messageOf(event.error) },
        },
      },
    },
    connecting: {
      invoke: {
        src: 'connect',
        input: ({ context }) => ({
          transport: context.transport as SmpTransport,
          namePrefix: context.namePrefix,
        }),
        onDone: [
          {
            guard: { type: 'chose', params: ({ event }) => event.output },
            target: 'reading',
            actions: assign({ link: ({ event }) => event.output }),
          },
          { target: 'idle' },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: ({ event }) => messageOf(event.error) },
        },
      },
    },
    reading: {
      invoke: {
        src: 'inspect',
        input: ({ context }) => ({ link: context.link as SmpLink }),
        onDone: { target: 'uploading', actions: assign({ facts: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: [{ type: 'fail', params: ({ event }) => messageOf(event.error) }, 'disconnect'],
        },
      },
    },
    uploading: {
      invoke: [
        {
          src: 'upload',
          input: ({ context }) => ({
            link: context.link as SmpLink,
            image: context.image as PreparedImage,
            bufSize: context.facts?.bufSize ?? 0,
          }),
        },
        { src: 'keepAwake' },
      ],
      on: {
        'upload.started': {
          actions: [
            'advance',
            assign({
              resumedFrom: ({ context, event }) => (context.drops > 0 ? event.off : context.resumedFrom),
            }),
          ],
        },
        'upload.progress': { actions: 'advance' },
        'upload.done': 'testing',
        'upload.lost': {
          target: 'reconnecting',
          actions: [assign({ drops: ({ context }) => context.drops + 1 }), 'restartProgress'],
        },
        'upload.failed': {
          target: 'failed',
          actions: [{ type: 'fail', params: ({ event }) => event.message }, 'disconnect'],
        },
        'update.cancel': { target: 'idle', actions: ['disconnect', assign({ problem: null })] },
      },
    },
    reconnecting: {
      invoke: [
        {
          src: 'reconnect',
          input: ({ context }) => ({ link: context.link as SmpLink }),
          onDone: 'uploading',
          onError: {
            target: 'failed',
            actions: {
              type: 'fail',
              params: ({ context }) => UPDATE_MESSAGES.lost(percentOf(context.progress)),
            },
          },
        },
        { src: 'keepAwake' },
      ],
      on: { 'update.cancel': { target: 'idle', actions: ['disconnect', assign({ problem: null })] } },
    },
    testing: {
      invoke: {
        src: 'markForTest',
        input: ({ context }) => ({
          link: context.link as SmpLink,
          hash: (context.image as PreparedImage).hash,
        }),
        onDone: 'resetting',
        onError: {
          target: 'failed',
          actions: [{ type: 'fail', params: ({ event }) => messageOf(event.error) }, 'disconnect'],
        },
      },
    },
    resetting: {
      invoke: {
        src: 'reset',
        input: ({ context }) => ({ link: context.link as SmpLink }),
        onDone: 'restarting',
        onError: 'restarting',
      },
    },
    restarting: {
      invoke: {
        src: 'reconnect',
        input: ({ context }) => ({ link: context.link as SmpLink }),
        onDone: 'checking',
        onError: { target: 'notBack', actions: { type: 'fail', params: UPDATE_MESSAGES.notBack } },
      },
    },
    checking: {
      invoke: {
        src: 'readRunning',
        input: ({ context }) => ({ link: context.link as SmpLink }),
        onDone: [
          {
            guard: { type: 'runsNew', params: ({ event }) => event.output },
            target: 'confirming',
            actions: assign({ after: ({ event }) => event.output }),
          },
          {
            target: 'reverted',
            actions: [
              assign({ after: ({ event }) => event.output }),
              { type: 'fail', params: ({ event }) => UPDATE_MESSAGES.reverted(event.output) },
              'disconnect',
            ],
          },
        ],
        onError: {
          target: 'notBack',
          actions: [{ type: 'fail', params: UPDATE_MESSAGES.notBack }, 'disconnect'],
        },
      },
    },
    confirming: {
      invoke: {
        src: 'confirm',
        input: ({ context }) => ({ link: context.link as SmpLink }),
        onDone: { target: 'done', actions: 'disconnect' },
        onError: {
          target: 'unconfirmed',
          actions: [{ type: 'fail', params: UPDATE_MESSAGES.unconfirmed }, 'disconnect'],
        },
      },
    },
    done: { on: { 'update.dismiss': 'idle' } },
    refused: { on: { 'update.dismiss': { target: 'idle', actions: assign({ problem: null }) } } },
    failed: {
      on: {
        'update.retry': { target: 'preparing', actions: assign({ problem: null }) },
        'update.dismiss': { target: 'idle', actions: assign({ problem: null }) },
      },
    },
    reverted: { on: { 'update.dismiss': { target: 'idle', actions: assign({ problem: null }) } } },
    notBack: { on: { 'update.dismiss': { target: 'idle', actions: assign({ problem: null }) } } },
    unconfirmed: { on: { 'update.dismiss': { target: 'idle', actions: assign({ problem: null }) } } },
  },
});

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
