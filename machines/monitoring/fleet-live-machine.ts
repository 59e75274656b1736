import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { reconnectDelay } from './live-stream-machine.ts';

/**
 * After a load, the next one waits this long: a screen of a fleet where something changes every
 * moment loads at most about once a second, not back to back.
 */
export const REFRESH_GAP_MS = 1_000;

/** What the fleet stream actor reports. */
export type FleetStreamEvent =
  /** The service accepted the stream: anything may have changed while it was not open. */
  | { type: 'stream.opened' }
  /** These sites changed (null: any): their alarms, devices online, devices or the sites themselves. */
  | { type: 'stream.changed'; sites: number[] | null }
  /** The stream ended or failed (network, token expired, server restart): worth opening again. */
  | { type: 'stream.closed'; message: string }
  /** The service refused it for good. */
  | { type: 'stream.refused'; message: string };

/** `fleet.refresh`: show the newest now (after the person changed something themself). */
export type FleetLiveEvent = FleetStreamEvent | { type: 'fleet.refresh' };

export interface FleetLiveInput {
  /** Only changes at this site matter (a site's or a device's page); none: any change does. */
  siteId?: number;
}

export interface FleetLiveContext {
  siteId: number | null;
  /** Failures in a row since the stream last opened: how long the next reconnect waits. */
  failures: number;
  /** Why the stream is down now (retrying or refused). */
  message: string | null;
  /** A change came while the screen was being refreshed: refresh once more after. */
  again: boolean;
}

/**
 * Keeps a screen's counts, alarms and online badges current: follows the service's fleet stream
 * (`GET /monitoring/fleet/live`), and whenever a change concerns the screen (any change, or one at
 * its site) runs `refresh` (the screen's loaders again), one at a time: changes that come during a
 * refresh make one more, {@link REFRESH_GAP_MS} after it. When the stream opens, and again after every reconnect, the
 * screen is refreshed, since changes made meanwhile were not told. A stream that ends is opened
 * again after 1 s, doubling to 30 s; a refusal ends it (the screen stays as loaded).
 */
export const fleetLiveMachine = setup({
  types: {
    context: {} as FleetLiveContext,
    events: {} as FleetLiveEvent,
    input: {} as FleetLiveInput,
  },
  actors: {
    /** Opens the stream and reports what happens on it; closes it when stopped. */
    stream: fromCallback<FleetStreamEvent>(() => () => {}),
    /** Shows the newest: runs the screen's loaders again. */
    refresh: fromPromise<void>(async () => undefined),
  },
  delays: {
    reconnect: ({ context }) => reconnectDelay(context.failures),
    gap: REFRESH_GAP_MS,
  },
  guards: {
    concernsScreen: ({ context, event }) =>
      event.type !== 'stream.changed' ||
      event.sites === null ||
      context.siteId === null ||
      event.sites.includes(context.siteId),
    changedMeanwhile: ({ context }) => context.again,
  },
}).createMachine({
  id: 'fleetLive',
  type: 'parallel',
  context: ({ input }) => ({ siteId: input.siteId ?? null, failures: 0, message: null, again: false }),
  states: {
    connection: {
      initial: 'streaming',
      states: {
        streaming: {
          invoke: { src: 'stream' },
          initial: 'connecting',
          states: {
            connecting: {
              on: {
                'stream.opened': { target: 'open', actions: assign({ failures: 0, message: null }) },
              },
            },
            open: {},
          },
          on: {
            'stream.closed': {
              target: 'retrying',
              actions: assign({
                failures: ({ context }) => context.failures + 1,
                message: ({ event }) => event.message,
              }),
            },
            'stream.refused': {
              target: 'refused',
              actions: assign({ message: ({ event }) => event.message }),
            },
          },
        },
        retrying: { after: { reconnect: 'streaming' } },
        refused: {},
      },
    },
    screen: {
      initial: 'shown',
      states: {
        shown: {
          on: {
            'stream.opened': 'refreshing',
            'stream.changed': { guard: 'concernsScreen', target: 'refreshing' },
            'fleet.refresh': 'refreshing',
          },
        },
        refreshing: {
          entry: assign({ again: false }),
          invoke: {
            src: 'refresh',
            // A failed refresh leaves the screen as it was: its own loaders say what failed.
            onDone: [{ guard: 'changedMeanwhile', target: 'pausing' }, 'shown'],
            onError: [{ guard: 'changedMeanwhile', target: 'pausing' }, 'shown'],
          },
          on: {
            'stream.opened': { actions: assign({ again: true }) },
            'stream.changed': { guard: 'concernsScreen', actions: assign({ again: true }) },
            'fleet.refresh': { actions: assign({ again: true }) },
          },
        },
        // Changes came during the load: one more, after a short gap (what comes meanwhile is in it).
        pausing: { after: { gap: 'refreshing' } },
      },
    },
  },
});
