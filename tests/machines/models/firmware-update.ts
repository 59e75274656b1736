import { createMachine } from 'xstate';
import { bleUpdateMachine } from '../../../machines/firmware/ble-update-machine.ts';
import { firmwareUpdateModelDriver } from '../firmware-update-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

/** Abstract model of one device's firmware update over Bluetooth, and every way it can go. */
const model = createMachine({
  id: 'firmwareUpdateModel',
  initial: 'idle',
  states: {
    idle: {
      on: {
        'update.start': 'updated',
        'update.startDropped': 'updatedAfterDrop',
        'update.startTampered': 'refused',
        'update.startWrongModel': 'refusedModel',
        'update.startUnhealthy': 'reverted',
        'update.startNeverBack': 'notBack',
        'update.startOutOfRange': 'outOfRange',
        'update.startChooserClosed': 'chooserClosed',
        'update.startDeviceRefuses': 'deviceRefused',
        'update.startLostForGood': 'lostForGood',
        'update.startThenCancel': 'cancelled',
        'update.startCancelReconnecting': 'cancelledReconnecting',
        'update.startReadLost': 'readFailed',
        'update.startTestLost': 'testFailed',
        'update.startCheckLost': 'checkFailed',
        'update.startConfirmLost': 'unconfirmed',
      },
    },
    updated: { on: { 'update.dismiss': 'dismissed' } },
    updatedAfterDrop: {},
    refused: { on: { 'update.dismiss': 'dismissed' } },
    refusedModel: {},
    reverted: { on: { 'update.dismiss': 'dismissed' } },
    notBack: { on: { 'update.dismiss': 'dismissed' } },
    outOfRange: { on: { 'update.retry': 'updated', 'update.dismiss': 'dismissed' } },
    chooserClosed: {},
    deviceRefused: {},
    lostForGood: {},
    cancelled: {},
    cancelledReconnecting: {},
    readFailed: {},
    testFailed: {},
    checkFailed: {},
    unconfirmed: { on: { 'update.dismiss': 'dismissed' } },
    dismissed: {},
  },
});

export default defineModel({
  name: 'firmware-update',
  title: "A device's firmware update over Bluetooth",
  source: 'machines/firmware/ble-update-machine.ts',
  about:
    "Updating one device over SMP (MCUmgr): the image checked by the Wasm parser before anything is sent, the upload resumed from the device's offset after a dropped link, test, reset, reconnect, the version checked, confirm; and every way it fails. Runs the real actors over the simulated device (two slots, Web Crypto signatures) behind a link that drops or holds where a path asks.",
  machine: bleUpdateMachine,
  model,
  driver: firmwareUpdateModelDriver,
  events: {
    'update.start': 'The person presses Update and picks the device: 1.0.0 → 1.1.0.',
    'update.startDropped': 'The same, and the link drops at about 40 % of the upload; it comes back at once.',
    'update.startTampered': 'The person presses Update, and the image downloaded has one byte changed.',
    'update.startWrongModel': 'The person presses Update, and the image is for another model (BT-10).',
    'update.startUnhealthy':
      'The person updates a device whose new firmware does not start (its watchdog reverts it).',
    'update.startNeverBack': 'The person updates a device that does not come back after its reset.',
    'update.startOutOfRange': 'The person presses Update, and the device does not answer the connection.',
    'update.retry': 'The person presses Try again, the device now in range.',
    'update.startChooserClosed': 'The person presses Update and closes the chooser.',
    'update.startDeviceRefuses':
      'The person updates a device that does not trust the key the image is signed with.',
    'update.startLostForGood': 'The link drops at about 40 % and the device stays away.',
    'update.startThenCancel': 'The person presses Update, then Cancel during the upload.',
    'update.startCancelReconnecting':
      'The link drops at about 40 %, and the person presses Cancel while it reconnects.',
    'update.startReadLost': "The link drops while the device's buffer size is read.",
    'update.startTestLost': 'The link drops as the image is marked for test.',
    'update.startCheckLost': 'The link drops as the version is read after the restart.',
    'update.startConfirmLost': 'The link drops as the new firmware is confirmed.',
    'update.dismiss': 'The person puts the result away.',
  },
  states: {
    idle: 'Nothing under way: "Update to 1.1.0" is offered.',
    updated: 'Done: the device runs 1.1.0, confirmed; the whole image was acknowledged.',
    updatedAfterDrop:
      'Done after one drop: the upload went on from the offset the device acknowledged (about 40 %), not from the start; 1.1.0 runs, confirmed.',
    refused:
      "Refused before anything was sent: the Wasm parser names the hash; the device's firmware is unchanged.",
    refusedModel: 'Refused before anything was sent: "it is for model BT-10, not HX-5000".',
    reverted:
      '"The device started again with its old firmware 1.0.0: the new firmware did not start."; 1.0.0 runs, confirmed.',
    notBack:
      '"The device did not come back after its restart. If the new firmware does not start, the device goes back to its old firmware at its next start."',
    outOfRange: '"The device did not answer…"; Try again is offered.',
    chooserClosed: 'Back to idle, no error; nothing was sent.',
    deviceRefused:
      'The device\'s refusal in words ("access denied: … a key this device does not trust"); its second slot is empty, 1.0.0 runs.',
    lostForGood:
      '"The connection was lost at N % and could not be made again…"; the device keeps what it received.',
    cancelled: 'Back to idle, no error; the device runs 1.0.0.',
    cancelledReconnecting:
      'Back to idle; the device keeps the bytes it acknowledged, for a later update to go on from.',
    readFailed: '"The connection to the device was lost."',
    testFailed: '"The connection to the device was lost."; 1.0.0 runs, nothing marked.',
    checkFailed:
      'The device did not answer after its restart: the same plain message as when it does not come back.',
    unconfirmed:
      '"The new firmware runs but could not be confirmed: the device goes back to its old firmware at its next start." (and it does).',
    dismissed: 'The result put away: idle, no message.',
  },
  unreachable: {
    'resetting → restarting on reset fails':
      'The simulated device answers a reset before it drops the link; a lost answer is taken as a reset (the next state, restarting, is reached by every path).',
  },
});
