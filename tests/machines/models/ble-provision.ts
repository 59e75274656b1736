import { createMachine } from 'xstate';
import { provisionMachine } from '../../../machines/ble/provision-machine.ts';
import { defineModel } from '../paths/model-entry.ts';
import { provisionModelDriver } from '../provision-model-driver.ts';

/**
 * Abstract model of giving a device its network settings over Bluetooth: a secret from the service
 * and its address, written with `Provision`; refused by the service or by a locked device; again.
 */
const model = createMachine({
  id: 'bleProvisionModel',
  initial: 'idle',
  states: {
    idle: {
      on: {
        'provision.start': 'given',
        'provision.startRefused': 'refused',
        'provision.startLocked': 'locked',
      },
    },
    given: { on: { 'provision.again': 'givenAgain', 'provision.dismiss': 'dismissed' } },
    givenAgain: {},
    refused: { on: { 'provision.dismiss': 'dismissed' } },
    locked: { on: { 'provision.retry': 'given' } },
    dismissed: {},
  },
});

export default defineModel({
  name: 'ble-provision',
  title: 'Giving a device its network settings over Bluetooth',
  source: 'machines/ble/provision-machine.ts',
  about:
    "At commissioning, the app asks the service for a new service-comms secret and its address, and writes both to the connected device with the protocol's Provision command; the device then connects by itself. Runs over the real device simulator and Bluetooth actor; the service's side answers a new secret, or refuses as the service does.",
  machine: provisionMachine,
  model,
  driver: provisionModelDriver,
  events: {
    'provision.start': 'The person, the device unlocked, presses "Give it its network settings".',
    'provision.again': 'The person presses it again.',
    'provision.startRefused':
      'The person presses it, and the service refuses (the person lacks the role on the site).',
    'provision.startLocked': 'The person presses it after the device was locked again by a wrong password.',
    'provision.retry': 'The person gives the right password and presses it again.',
    'provision.dismiss': 'The person puts the result away.',
  },
  states: {
    idle: 'Nothing given yet; the device holds no secret.',
    given:
      'The device keeps the secret the service issued and the address; "has its network settings: it connects to wss://… by itself"; the machine keeps no secret.',
    givenAgain: 'The device keeps the second secret issued (the first stops working at the service).',
    refused: '"The network settings were not given", with the service\'s reason; nothing reached the device.',
    locked:
      '"The network settings were not given: The device is locked: give its password first."; the secret issued is dropped; the device holds none.',
    dismissed: 'The result put away; nothing under way.',
  },
});
