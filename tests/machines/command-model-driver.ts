import { expect } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { Command } from '../../contracts/catalogue.ts';
import { createBleActors } from '../../machines/ble/ble-actors.ts';
import { commandMachine } from '../../machines/ble/command-machine.ts';
import { sendPassword } from '../../src/ble/device-commands.ts';
import { bleHarness, product } from './ble-harness.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const PASSWORD = '0042abc';
const commandNamed = (name: string): Command => {
  const command = product.entry.commands.find((c) => c.name === name);
  if (!command) throw new Error(`${product.modelId} has no command ${name}`);
  return command;
};
const RESTART = commandNamed('Restart inverter');
const CLEAR_FAULTS = commandNamed('Clear fault log');

/**
 * Events and state checks that run one path of the device-command model against the real command
 * machine and the real command actor, over the simulated device of the Bluetooth harness.
 */
export function commandModelDriver(): ModelDriver {
  const started = (async () => {
    const h = await bleHarness({ password: PASSWORD });
    h.connection.send({ type: 'ble.connect', transport: h.transport });
    await waitFor(h.connection, (s) => s.matches('ready'));
    const actors = createBleActors({ codec: h.codec, product });
    const command = createActor(commandMachine.provide({ actors: actors.command }), {
      inspect: recordCoverage,
    }).start();
    return { ...h, command };
  })();
  let asked: Command | null = null;
  let ranBefore = 0;
  let ranAtAsk = 0;
  /** Gives the device a password over the link, as the password form does. */
  const password = async (text: string) => {
    const h = await started;
    await sendPassword(h.codec, h.link(), product, text);
  };
  const confirm = async (until: 'done' | 'failed') => {
    const h = await started;
    ranBefore = h.device.commandLog.length;
    h.command.send({ type: 'command.confirm', link: h.link() });
    expect(h.command.getSnapshot().matches('running')).toBe(true);
    await waitFor(h.command, (s) => s.matches(until));
  };
  const ask = async (command: Command) => {
    const h = await started;
    asked = command;
    ranAtAsk = h.device.commandLog.length;
    h.command.send({ type: 'command.ask', command });
  };
  const idle = async () => {
    const h = await started;
    const s = h.command.getSnapshot();
    expect(s.matches('idle')).toBe(true);
    expect(s.context.problem).toBeNull();
  };
  return {
    events: {
      'command.ask': () => ask(RESTART),
      'command.askAnother': () => ask(CLEAR_FAULTS),
      'command.confirm': async () => {
        if (!(await started).device.isUnlocked) await password(PASSWORD);
        expect((await started).device.isUnlocked).toBe(true);
        await confirm('done');
      },
      'command.confirmLocked': async () => {
        await password('wrong');
        expect((await started).device.isUnlocked).toBe(false);
        await confirm('failed');
      },
      'command.cancel': async () => (await started).command.send({ type: 'command.cancel' }),
      'command.dismiss': async () => (await started).command.send({ type: 'command.dismiss' }),
    },
    states: {
      idle,
      confirming: async () => {
        const h = await started;
        const s = h.command.getSnapshot();
        expect(s.matches('confirming')).toBe(true);
        expect(s.context.command).toEqual(asked);
        expect(s.context.problem).toBeNull();
        // Nothing reaches the device before the person confirms.
        expect(h.device.commandLog).toHaveLength(ranAtAsk);
      },
      done: async () => {
        const h = await started;
        expect(h.command.getSnapshot().matches('done')).toBe(true);
        expect(h.device.commandLog).toHaveLength(ranBefore + 1);
        expect(h.device.commandLog.at(-1)).toMatchObject({ name: asked?.name, opCode: asked?.opCode });
      },
      failed: async () => {
        const h = await started;
        const s = h.command.getSnapshot();
        expect(s.matches('failed')).toBe(true);
        expect(s.context.problem).toEqual({
          kind: 'device-error',
          message: 'The device is locked: give its password first.',
        });
        expect(h.device.commandLog).toHaveLength(ranBefore);
      },
      cancelled: async () => {
        await idle();
        expect((await started).command.getSnapshot().context.command).toBeNull();
      },
      dismissed: async () => {
        const s = (await started).command.getSnapshot();
        expect(s.matches('idle')).toBe(true);
        expect(s.can({ type: 'command.dismiss' })).toBe(false);
      },
    },
  };
}
