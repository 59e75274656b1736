import { writeMachine } from '../../../machines/ble/write-machine.ts';
import { bleWriteModelDriver } from '../ble-model-drivers.ts';
import { bleWriteModel } from '../ble-models.ts';
import { defineModel } from '../paths/model-entry.ts';

export default defineModel({
  name: 'ble-write',
  title: 'Bluetooth configuration write',
  source: 'machines/ble/write-machine.ts',
  about:
    'Writing a configuration form to an unlocked device: validated, encoded, written, read back and verified, or a clear failure with nothing half-written.',
  machine: writeMachine,
  model: bleWriteModel,
  driver: bleWriteModelDriver,
  events: {
    'write.valid': 'The person changes the max charge current to a valid value and presses Write.',
    'write.invalid': 'The person types a max charge current over the limit (120 A) and presses Write.',
    'write.linkDropped': 'The person presses Write and the link drops before the device takes the frame.',
    'write.readBackDiffers':
      'The person presses Write and the device reads back another value than was written.',
    'write.answerDamaged': "The person presses Write and the device's first answer arrives with a bad CRC.",
    'write.deviceLocked':
      'The person presses Write, but the device was locked again (given a wrong password), so it refuses the write.',
    'write.readBackLost':
      'The person presses Write; the device takes it, but the link drops before it can be read back.',
    'write.ignored':
      'The person presses Write; the device answers but stores nothing (the read-back shows the old values).',
    'write.staleBase':
      'A write is asked over a configuration frame cut short (8 bytes): it cannot be encoded.',
    'config.dismiss': 'The person dismisses the result.',
  },
  states: {
    idle: 'Nothing written yet.',
    done: 'Written and verified: the device holds exactly what was written.',
    invalid: "The form is refused with the field's message; nothing was sent, the device is unchanged.",
    lost: 'The link dropped: "lost" is shown, it is unknown whether the device took the write; the device is unchanged.',
    different: 'The read-back differs: the differing field is named.',
    dismissed: 'The result put away: ready for the next write.',
    doneAgain: 'A second write, verified too: the device holds the newer value.',
    refused: 'The device refused: "locked", and the device kept its old configuration (and holds it).',
    unreadable:
      'The device took the write but it could not be read back: "read the device again before trusting them".',
    kept: 'The read-back shows the old values: "The device kept its old configuration."',
    notSent: 'The reason is shown with "Nothing was sent to the device."; the device is unchanged.',
  },
});
