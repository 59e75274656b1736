import { fromCallback, sendTo, setup } from 'xstate';

/**
 * Two things the app tells a person about itself, whatever screen is open: that there is no
 * connection (the bundled catalogue still works, live data does not), and that a new version
 * is installed and waiting. A new version takes over only when the person chooses to reload,
 * never under their feet.
 */
export type AppStatusEvent =
  | { type: 'network.online' }
  | { type: 'network.offline' }
  /** A new version is installed and waiting (sent by the service-worker actor). */
  | { type: 'update.found' }
  /** The person chose "Reload to update". */
  | { type: 'update.apply' }
  /** The person chose "Later": the notice goes until the next version is found. */
  | { type: 'update.dismiss' };

/** What the machine asks of the service-worker actor. */
export type ServiceWorkerCommand = { type: 'worker.activate' };

export const appStatusMachine = setup({
  types: {
    context: {} as { online: boolean },
    events: {} as AppStatusEvent,
    input: {} as { online: boolean },
  },
  actors: {
    /** Sends `network.online` / `network.offline` as the connection comes and goes. */
    connectivity: fromCallback<AppStatusEvent>(() => () => {}),
    /**
     * Registers the service worker and sends `update.found` when a new version waits; on
     * `worker.activate` lets it take over and reloads the page once it has.
     */
    serviceWorker: fromCallback<ServiceWorkerCommand>(() => () => {}),
  },
  guards: {
    startedOnline: ({ context }) => context.online,
  },
}).createMachine({
  id: 'appStatus',
  type: 'parallel',
  context: ({ input }) => ({ online: input.online }),
  invoke: [
    { id: 'connectivity', src: 'connectivity' },
    { id: 'serviceWorker', src: 'serviceWorker' },
  ],
  states: {
    network: {
      initial: 'checking',
      states: {
        // Resolved at once from the input: the browser knows whether it has a connection.
        checking: {
          always: [{ guard: 'startedOnline', target: 'online' }, { target: 'offline' }],
        },
        online: { on: { 'network.offline': 'offline' } },
        offline: { on: { 'network.online': 'online' } },
      },
    },
    update: {
      initial: 'current',
      states: {
        current: { on: { 'update.found': 'available' } },
        available: {
          on: { 'update.apply': 'applying', 'update.dismiss': 'dismissed' },
        },
        dismissed: { on: { 'update.found': 'available' } },
        // The page reloads once the new version controls it; until then the choice is made.
        applying: {
          entry: sendTo('serviceWorker', { type: 'worker.activate' } satisfies ServiceWorkerCommand),
        },
      },
    },
  },
});
