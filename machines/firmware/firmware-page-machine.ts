import { assign, fromPromise, setup } from 'xstate';
import type {
  FirmwareChannel,
  FirmwareImageInfo,
  RolloutCreate,
  RolloutSummary,
} from '../../contracts/firmware.ts';

/** An image file to upload, for the model and channel the person chose. */
export interface FirmwareUpload {
  file: Blob;
  fileName: string;
  model: string;
  channel: FirmwareChannel;
}

/** What the page shows: every image the person may update devices with, and the newest rollouts. */
export interface FirmwareLists {
  images: FirmwareImageInfo[];
  rollouts: RolloutSummary[];
}

/** Why a call failed: the service's words, and its code (`firmware_invalid` for a refused image). */
export interface FirmwareFailure {
  message: string;
  code: string | null;
}

export type FirmwarePageEvent =
  | { type: 'firmware.upload.open' }
  | { type: 'firmware.upload'; upload: FirmwareUpload }
  | { type: 'firmware.start.open'; firmwareId?: number }
  | { type: 'firmware.start'; request: RolloutCreate }
  | { type: 'firmware.close' }
  | { type: 'firmware.refresh' };

export interface FirmwarePageContext extends FirmwareLists {
  /** Why the lists could not be read again (what was read before stays shown). */
  listError: string | null;
  /** Why the last upload was refused. */
  uploadError: FirmwareFailure | null;
  /** The image just uploaded, said above the list until the next change. */
  uploaded: FirmwareImageInfo | null;
  /** The image the start dialog opened with (its "Roll out" button), or null. */
  startWith: number | null;
  /** Why the last start was refused. */
  startError: FirmwareFailure | null;
  /** The rollout just started: the page opens it. */
  started: number | null;
}

export const failureOf = (error: unknown): FirmwareFailure => ({
  message: error instanceof Error ? error.message : String(error),
  code:
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
      ? error.code
      : null,
});

/**
 * The Firmware page: the images and rollouts its loader read; an image uploaded in a dialog (a
 * refusal keeps the dialog open with the service's reason), a rollout started in another (then the
 * page opens it: action `openRollout`), the lists read again on "Refresh". A dialog cannot be
 * closed while its call runs. Actors do the I/O: `lists`, `upload`, `start`.
 */
export const firmwarePageMachine = setup({
  types: {
    context: {} as FirmwarePageContext,
    events: {} as FirmwarePageEvent,
    input: {} as FirmwareLists,
  },
  actors: {
    lists: fromPromise<FirmwareLists>(async () => ({ images: [], rollouts: [] })),
    upload: fromPromise<FirmwareImageInfo, FirmwareUpload>(async () => {
      throw new Error('The upload actor is not provided');
    }),
    start: fromPromise<{ id: number }, RolloutCreate>(async () => {
      throw new Error('The start actor is not provided');
    }),
  },
  actions: {
    /** Opens the rollout just started (the screen provides the navigation). */
    openRollout: () => {},
  },
}).createMachine({
  id: 'firmwarePage',
  context: ({ input }) => ({
    images: input.images,
    rollouts: input.rollouts,
    listError: null,
    uploadError: null,
    uploaded: null,
    startWith: null,
    startError: null,
    started: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'firmware.refresh': 'refreshing',
        'firmware.upload.open': {
          target: 'uploading',
          actions: assign({ uploadError: null, uploaded: null }),
        },
        'firmware.start.open': {
          target: 'starting',
          actions: assign({ startError: null, startWith: ({ event }) => event.firmwareId ?? null }),
        },
      },
    },
    refreshing: {
      invoke: {
        src: 'lists',
        onDone: {
          target: 'idle',
          actions: assign({
            images: ({ event }) => event.output.images,
            rollouts: ({ event }) => event.output.rollouts,
            listError: null,
          }),
        },
        onError: {
          target: 'idle',
          actions: assign({ listError: ({ event }) => failureOf(event.error).message }),
        },
      },
    },
    uploading: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'firmware.upload': 'sending',
            'firmware.close': '#firmwarePage.idle',
          },
        },
        sending: {
          invoke: {
            src: 'upload',
            input: ({ event }) => {
              if (event.type !== 'firmware.upload') throw new Error(`unexpected ${event.type}`);
              return event.upload;
            },
            onDone: {
              target: '#firmwarePage.idle',
              actions: assign({
                uploaded: ({ event }) => event.output,
                images: ({ context, event }) => [
                  event.output,
                  ...context.images.filter((image) => image.id !== event.output.id),
                ],
              }),
            },
            onError: {
              target: 'editing',
              actions: assign({ uploadError: ({ event }) => failureOf(event.error) }),
            },
          },
        },
      },
    },
    starting: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'firmware.start': 'sending',
            'firmware.close': '#firmwarePage.idle',
          },
        },
        sending: {
          invoke: {
            src: 'start',
            input: ({ event }) => {
              if (event.type !== 'firmware.start') throw new Error(`unexpected ${event.type}`);
              return event.request;
            },
            onDone: {
              // The page is left for the rollout's; coming back reads the lists afresh.
              target: '#firmwarePage.idle',
              actions: [assign({ started: ({ event }) => event.output.id }), 'openRollout'],
            },
            onError: {
              target: 'editing',
              actions: assign({ startError: ({ event }) => failureOf(event.error) }),
            },
          },
        },
      },
    },
  },
});
