import { assign, fromPromise, setup } from 'xstate';
import type { Command } from '../../contracts/catalogue.ts';
import { type BleLink, type BleProblem, problemOf } from './ble-types.ts';

export interface CommandContext {
  command: Command | null;
  problem: BleProblem | null;
}

export type CommandEvent =
  | { type: 'command.ask'; command: Command }
  | { type: 'command.confirm'; link: BleLink }
  | { type: 'command.cancel' }
  | { type: 'command.dismiss' };

/** A catalogue command (restart, reset counters, …): asked, confirmed by the person, run, reported. */
export const commandMachine = setup({
  types: { context: {} as CommandContext, events: {} as CommandEvent },
  actors: {
    runCommand: fromPromise<void, { link: BleLink; opCode: number }>(async () => {
      throw new Error('The runCommand actor is not provided');
    }),
  },
}).createMachine({
  id: 'bleCommand',
  context: { command: null, problem: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'command.ask': {
          target: 'confirming',
          actions: assign({ command: ({ event }) => event.command, problem: null }),
        },
      },
    },
    confirming: {
      on: {
        'command.confirm': 'running',
        'command.cancel': { target: 'idle', actions: assign({ command: null }) },
      },
    },
    running: {
      invoke: {
        src: 'runCommand',
        input: ({ context, event }) => ({
          link: (event as Extract<CommandEvent, { type: 'command.confirm' }>).link,
          opCode: context.command?.opCode ?? 0,
        }),
        onDone: 'done',
        onError: { target: 'failed', actions: assign({ problem: ({ event }) => problemOf(event.error) }) },
      },
    },
    done: {
      on: {
        'command.dismiss': 'idle',
        'command.ask': {
          target: 'confirming',
          actions: assign({ command: ({ event }) => event.command, problem: null }),
        },
      },
    },
    failed: {
      on: {
        'command.dismiss': 'idle',
        'command.ask': {
          target: 'confirming',
          actions: assign({ command: ({ event }) => event.command, problem: null }),
        },
      },
    },
  },
});
