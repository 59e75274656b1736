import { assign, fromPromise, setup } from 'xstate';

/** How often the devices screens ask which devices are online (the device side pings every 15 s). */
export const ONLINE_POLL_MS = 20_000;

/** Events: `online.refresh` asks now instead of waiting for the next poll. */
export type OnlineDevicesEvent = { type: 'online.refresh' };

export interface OnlineDevicesContext {
  /** Serial numbers online at the last answer; kept through a failed poll. */
  online: readonly string[];
  /** The last poll failed: the badges may be stale. */
  stale: boolean;
}

/**
 * Which devices are online now, for the badges of the devices screens: asks on start, then every
 * {@link ONLINE_POLL_MS}. A failed poll keeps what was known and tries again at the next one: the
 * badges are a hint, never a reason to show an error over the screen.
 */
export const onlineDevicesMachine = setup({
  types: {
    context: {} as OnlineDevicesContext,
    events: {} as OnlineDevicesEvent,
  },
  actors: {
    /** Resolves with the serial numbers online now. */
    fetchOnline: fromPromise<string[]>(async () => []),
  },
  delays: { poll: ONLINE_POLL_MS },
}).createMachine({
  id: 'onlineDevices',
  context: { online: [], stale: false },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchOnline',
        onDone: {
          target: 'waiting',
          actions: assign({ online: ({ event }) => event.output, stale: false }),
        },
        onError: { target: 'waiting', actions: assign({ stale: true }) },
      },
    },
    waiting: {
      after: { poll: 'loading' },
      on: { 'online.refresh': 'loading' },
    },
  },
});
