import { assign, fromPromise, setup } from 'xstate';
import type { Device } from '../../contracts/devices.ts';
import type { InstalledDevice } from '../../contracts/installs.ts';

/** What can be done to a device on a site, and what each needs. */
export type DeviceAction =
  | { kind: 'rename'; name: string }
  | { kind: 'move'; siteId: number }
  | { kind: 'replace'; serial: string; claimCode?: string }
  | { kind: 'remove' };

/** How an action ended: the device as it is now, the new unit with its secret, or gone. */
export type ActionResult =
  | { kind: 'changed'; device: Device }
  | { kind: 'replaced'; device: InstalledDevice }
  | { kind: 'removed' };

export interface DeviceActionContext {
  /** The dialog open, if any. */
  open: DeviceAction['kind'] | null;
  error: string | null;
  result: ActionResult | null;
}

export type DeviceActionEvent =
  | { type: 'action.open'; kind: DeviceAction['kind'] }
  | { type: 'action.cancel' }
  | { type: 'action.confirm'; action: DeviceAction };

/**
 * Moving, renaming, replacing and taking a device off its site from its page: each opens a
 * dialog that says what happens to the history and asks for confirmation, then runs once; a
 * refusal keeps the dialog open with the service's reason. A rename or move reruns the page's
 * loaders (`refresh`) and closes the dialog; a replacement shows the new unit's secret, and a
 * removal leaves the device's page for its site's (`leave`): the device is no longer there.
 */
export const deviceActionMachine = setup({
  types: {
    context: {} as DeviceActionContext,
    events: {} as DeviceActionEvent,
  },
  actors: {
    perform: fromPromise<ActionResult, DeviceAction>(async () => {
      throw new Error('The perform actor is not provided');
    }),
    /** Runs every loader on the page again, as after any save; provided by the app. */
    refresh: fromPromise<void>(async () => undefined),
  },
  actions: {
    /** Goes from the device's page to its site's; provided by the app. */
    leave: () => undefined,
  },
  guards: {
    /** A rename or a move: the device stays on this page, which shows it again. */
    changed: (_, result: ActionResult) => result.kind === 'changed',
    /** Taken off the site: this page has nothing left to show. */
    removed: (_, result: ActionResult) => result.kind === 'removed',
  },
}).createMachine({
  id: 'deviceAction',
  context: { open: null, error: null, result: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'action.open': {
          target: 'confirming',
          actions: assign({ open: ({ event }) => event.kind, error: null }),
        },
      },
    },
    confirming: {
      on: {
        'action.cancel': { target: 'idle', actions: assign({ open: null, error: null }) },
        'action.confirm': 'working',
      },
    },
    working: {
      invoke: {
        src: 'perform',
        input: ({ event }) => {
          if (event.type !== 'action.confirm') throw new Error('working needs a confirmed action');
          return event.action;
        },
        onDone: [
          {
            guard: { type: 'changed', params: ({ event }) => event.output },
            target: 'refreshing',
            actions: assign({ result: ({ event }) => event.output, error: null }),
          },
          // A removal leaves the page, and a replacement's secret is shown: this page is not shown again.
          {
            guard: { type: 'removed', params: ({ event }) => event.output },
            target: 'done',
            actions: [assign({ result: ({ event }) => event.output, error: null }), 'leave'],
          },
          { target: 'done', actions: assign({ result: ({ event }) => event.output, error: null }) },
        ],
        onError: {
          target: 'confirming',
          actions: assign({
            error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)),
          }),
        },
      },
    },
    // A rename or move is shown the way every save is: the page's loaders run again, then the
    // dialog closes.
    refreshing: {
      invoke: {
        src: 'refresh',
        // The change is saved either way: a loader that fails shows its own error.
        onDone: { target: 'idle', actions: assign({ open: null, result: null }) },
        onError: { target: 'idle', actions: assign({ open: null, result: null }) },
      },
    },
    done: {
      on: {
        'action.cancel': { target: 'idle', actions: assign({ open: null, result: null }) },
        'action.open': {
          target: 'confirming',
          actions: assign({ open: ({ event }) => event.kind, error: null, result: null }),
        },
      },
    },
  },
});
