import { passwordMachine } from '../../../machines/ble/password-machine.ts';
import { blePasswordModelDriver } from '../ble-model-drivers.ts';
import { blePasswordModel } from '../ble-models.ts';
import { defineModel } from '../paths/model-entry.ts';

export default defineModel({
  name: 'ble-password',
  title: 'Bluetooth device password',
  source: 'machines/ble/password-machine.ts',
  about:
    'Unlocking a connected device with its password: a wrong one, one too long to send, the right one (with leading zeros), a dropped link that comes back unlocked on its own, and disconnecting.',
  machine: passwordMachine,
  model: blePasswordModel,
  driver: blePasswordModelDriver,
  events: {
    'link.ready': 'The Bluetooth connection is ready: the device asks for its password.',
    'link.readyNoPassword': 'The Bluetooth connection to a product that has no password is ready.',
    'password.linkDropped': 'The link drops just as the person sends the right password.',
    'password.wrong': 'The person types a wrong password (the right one without its leading zeros).',
    'password.tooLong': 'The person types a password of 17 characters, longer than a device holds.',
    'password.right': 'The person types the right password, leading zeros included.',
    'link.dropped': 'The Bluetooth link drops while the device is unlocked.',
    'link.back': 'The link comes back on its own.',
    'ble.disconnect': 'The person presses Disconnect.',
  },
  states: {
    disconnected: 'No link yet: no password asked.',
    locked: 'The device asks for its password; it stays locked.',
    open: 'The form is open at once: no password asked, nothing sent to the device.',
    checkFailed:
      'Still locked, with why the password could not be checked (the link dropped); nothing remembered.',
    wrong: 'Still locked, with "wrong password" shown.',
    tooLong: 'Still locked, with "too long" shown; nothing was sent.',
    unlocked: 'The device accepted the password and is unlocked.',
    away: 'The link is gone; the accepted password is kept to give again on its own.',
    forgotten: 'Disconnected by the person: the accepted password is forgotten.',
  },
});
