import { assign, fromPromise, setup } from 'xstate';
import type { Rollout, RolloutState } from '../../contracts/firmware.ts';
import { failureOf } from './firmware-page-machine.ts';

/** How often a rollout's page reads it again while something can still change. */
export const ROLLOUT_POLL_MS = 1_000;

/** The steering calls, and the rollout states each may be sent in (the service's rule). */
export const STEERING = {
  pause: ['running'],
  resume: ['paused'],
  cancel: ['running', 'paused', 'stopped'],
} as const satisfies Record<string, readonly RolloutState[]>;
export type SteerAction = keyof typeof STEERING;

/**
 * Whether nothing more happens to the rollout by itself: it is done, cancelled or stopped and no
 * device is uploading or testing (those finish whatever the rollout's state).
 */
export const rolloutSettled = (rollout: Rollout): boolean =>
  (rollout.state === 'done' || rollout.state === 'cancelled' || rollout.state === 'stopped') &&
  !rollout.devices.some((device) => device.state === 'uploading' || device.state === 'testing');

export type RolloutEvent =
  | { type: 'rollout.pause' }
  | { type: 'rollout.resume' }
  | { type: 'rollout.cancel' }
  | { type: 'rollout.confirm' }
  | { type: 'rollout.keep' }
  | { type: 'rollout.refresh' };

export interface RolloutContext {
  rollout: Rollout;
  /** Why the last reading failed; the page keeps showing what it read before and tries again. */
  refreshError: string | null;
  /** Why the service refused the last pause, resume or cancel. */
  steerError: string | null;
  /** The steering call under way. */
  steering: SteerAction | null;
}

const may =
  (action: SteerAction) =>
  ({ context }: { context: RolloutContext }) =>
    (STEERING[action] as readonly RolloutState[]).includes(context.rollout.state);

/**
 * A rollout's page: the rollout its loader read, read again every `ROLLOUT_POLL_MS` until it is
 * settled (nothing moves by itself any more) or the page is left (the actor stops, and its timer
 * with it); Pause, Resume and Cancel (after a confirmation) when the rollout's state allows them,
 * the rollout read again after each. Actors: `read`, `steer`.
 */
export const rolloutMachine = setup({
  types: {
    context: {} as RolloutContext,
    events: {} as RolloutEvent,
    input: {} as { rollout: Rollout },
  },
  actors: {
    read: fromPromise<Rollout, { id: number }>(async () => {
      throw new Error('The read actor is not provided');
    }),
    steer: fromPromise<void, { id: number; action: SteerAction }>(async () => undefined),
  },
  guards: {
    settled: ({ context }) => rolloutSettled(context.rollout),
    mayPause: may('pause'),
    mayResume: may('resume'),
    mayCancel: may('cancel'),
  },
  delays: { poll: ROLLOUT_POLL_MS },
}).createMachine({
  id: 'rollout',
  context: ({ input }) => ({ rollout: input.rollout, refreshError: null, steerError: null, steering: null }),
  initial: 'live',
  states: {
    live: {
      initial: 'checking',
      on: {
        'rollout.pause': {
          guard: 'mayPause',
          target: 'steering',
          actions: assign({ steering: 'pause', steerError: null }),
        },
        'rollout.resume': {
          guard: 'mayResume',
          target: 'steering',
          actions: assign({ steering: 'resume', steerError: null }),
        },
        'rollout.cancel': {
          guard: 'mayCancel',
          target: 'confirmingCancel',
          actions: assign({ steerError: null }),
        },
      },
      states: {
        checking: {
          always: [{ guard: 'settled', target: '#rollout.settled' }, { target: 'waiting' }],
        },
        waiting: {
          after: { poll: 'reading' },
        },
        reading: {
          invoke: {
            src: 'read',
            input: ({ context }) => ({ id: context.rollout.id }),
            onDone: {
              target: 'checking',
              actions: assign({ rollout: ({ event }) => event.output, refreshError: null }),
            },
            onError: {
              target: 'waiting',
              actions: assign({ refreshError: ({ event }) => failureOf(event.error).message }),
            },
          },
        },
      },
    },
    settled: {
      on: {
        'rollout.refresh': 'live.reading',
        // A stopped rollout is settled once its last devices finished, and may still be cancelled.
        'rollout.cancel': {
          guard: 'mayCancel',
          target: 'confirmingCancel',
          actions: assign({ steerError: null }),
        },
      },
    },
    confirmingCancel: {
      on: {
        'rollout.confirm': { target: 'steering', actions: assign({ steering: 'cancel' }) },
        'rollout.keep': 'live',
      },
    },
    steering: {
      invoke: {
        src: 'steer',
        input: ({ context }) => ({ id: context.rollout.id, action: context.steering ?? 'pause' }),
        onDone: { target: 'live.reading', actions: assign({ steering: null }) },
        onError: {
          target: 'live.reading',
          actions: assign({ steering: null, steerError: ({ event }) => failureOf(event.error).message }),
        },
      },
    },
  },
});
