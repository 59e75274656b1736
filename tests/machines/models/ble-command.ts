import { createMachine } from 'xstate';
import { commandMachine } from '../../../machines/ble/command-machine.ts';
import { commandModelDriver } from '../command-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

/** Abstract model of a catalogue command: asked, confirmed or cancelled, run or refused, put away. */
const model = createMachine({
  id: 'bleCommandModel',
  initial: 'idle',
  states: {
    idle: { on: { 'command.ask': 'confirming' } },
    confirming: {
      on: { 'command.confirm': 'done', 'command.confirmLocked': 'failed', 'command.cancel': 'cancelled' },
    },
    done: { on: { 'command.dismiss': 'dismissed', 'command.askAnother': 'confirming' } },
    failed: { on: { 'command.dismiss': 'dismissed', 'command.askAnother': 'confirming' } },
    cancelled: {},
    dismissed: {},
  },
});

export default defineModel({
  name: 'ble-command',
  title: 'Bluetooth device command (restart, clear faults, …)',
  source: 'machines/ble/command-machine.ts',
  about:
    "A command from the device's catalogue entry, run over Bluetooth: asked, confirmed by the person (or cancelled), run by the device or refused, and the result put away. Runs over the real device simulator.",
  machine: commandMachine,
  model,
  driver: commandModelDriver,
  events: {
    'command.ask': 'The person chooses "Restart inverter".',
    'command.askAnother': 'The person chooses another command, "Clear fault log".',
    'command.confirm': 'The person confirms on an unlocked device (the password given first).',
    'command.confirmLocked':
      'The person confirms, but the device has been locked again (it was given a wrong password), so it refuses.',
    'command.cancel': 'The person cancels the confirmation.',
    'command.dismiss': 'The person puts the result away.',
  },
  states: {
    idle: 'No command under way.',
    confirming: 'Asking the person to confirm the chosen command; nothing has reached the device.',
    done: 'The device ran the command (its log holds it once).',
    failed: 'The device refused: "The device is locked: give its password first." The device ran nothing.',
    cancelled: 'Cancelled: no command under way, none chosen.',
    dismissed: 'The result put away: no command under way, nothing to dismiss.',
  },
});
