import { assign, fromPromise, setup } from 'xstate';
import type { ProvisioningAnswer } from '../../contracts/claims.ts';
import type { Provisioning } from '../../src/device-protocol/protocol.ts';
import { type BleLink, type BleProblem, problemOf } from './ble-types.ts';

export interface ProvisionContext {
  serial: string;
  /** The link the secret goes over, while it is being given. */
  link: BleLink | null;
  /** The secret and address from the service, between issuing and writing them; never kept after. */
  issued: ProvisioningAnswer | null;
  /** The address the device was given, once it keeps it. */
  address: string | null;
  problem: BleProblem | null;
}

export type ProvisionEvent = { type: 'provision.start'; link: BleLink } | { type: 'provision.dismiss' };

/**
 * Giving a device its network settings at commissioning: the service issues a new service-comms
 * secret and names its address (`issue`), then the app writes both to the device over Bluetooth
 * with the protocol's `Provision` command (`give`); the device then connects by itself. The secret
 * passes through the context only between the two steps: nobody sees it, and a failure drops it
 * (trying again issues a new one).
 */
export const provisionMachine = setup({
  types: {
    context: {} as ProvisionContext,
    events: {} as ProvisionEvent,
    input: {} as { serial: string },
  },
  actors: {
    issue: fromPromise<ProvisioningAnswer, { serial: string }>(async () => {
      throw new Error('The issue actor is not provided');
    }),
    give: fromPromise<void, { link: BleLink; provisioning: Provisioning }>(async () => {
      throw new Error('The give actor is not provided');
    }),
  },
  actions: {
    take: assign((_, { link }: { link: BleLink }) => ({ link, problem: null })),
    fail: assign(({ event }) => ({
      problem: problemOf((event as { error?: unknown }).error),
      issued: null,
      link: null,
    })),
  },
}).createMachine({
  id: 'bleProvision',
  context: ({ input }) => ({ serial: input.serial, link: null, issued: null, address: null, problem: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'provision.start': { target: 'issuing', actions: { type: 'take', params: ({ event }) => event } },
      },
    },
    issuing: {
      invoke: {
        src: 'issue',
        input: ({ context }) => ({ serial: context.serial }),
        onDone: { target: 'giving', actions: assign({ issued: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    giving: {
      invoke: {
        src: 'give',
        input: ({ context }) => ({
          link: context.link as BleLink,
          provisioning: { secret: context.issued?.secret ?? '', address: context.issued?.address ?? '' },
        }),
        onDone: {
          target: 'given',
          actions: assign(({ context }) => ({
            address: context.issued?.address ?? null,
            issued: null,
            link: null,
          })),
        },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    given: {
      on: {
        'provision.start': { target: 'issuing', actions: { type: 'take', params: ({ event }) => event } },
        'provision.dismiss': { target: 'idle', actions: assign({ problem: null }) },
      },
    },
    failed: {
      on: {
        'provision.start': { target: 'issuing', actions: { type: 'take', params: ({ event }) => event } },
        'provision.dismiss': { target: 'idle', actions: assign({ problem: null }) },
      },
    },
  },
});
