import { createMachine } from 'xstate';
import { appStatusMachine } from '../../../machines/app-status/app-status-machine.ts';
import { appStatusModelDriver } from '../app-status-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

/** Abstract model of the app status: the connection coming and going, and a new version offered. */
const model = createMachine({
  id: 'appStatusModel',
  initial: 'starting',
  states: {
    starting: { on: { 'start.online': 'online', 'start.offline': 'offline' } },
    online: { on: { 'network.offline': 'offline', 'update.found': 'updateOffered' } },
    offline: { on: { 'network.online': 'online' } },
    updateOffered: {
      on: {
        'update.apply': 'updating',
        'update.dismiss': 'updateDismissed',
        'network.offline': 'offlineUpdateOffered',
      },
    },
    offlineUpdateOffered: { on: { 'network.online': 'updateOffered' } },
    updateDismissed: { on: { 'update.found': 'updateOffered' } },
    updating: {},
  },
});

export default defineModel({
  name: 'app-status',
  title: 'App status (offline notice and update offer)',
  source: 'machines/app-status/app-status-machine.ts',
  about:
    'The two things the app tells a person about itself on every screen: that there is no connection, and that a new version is installed and waiting, which takes over only when the person chooses to reload.',
  machine: appStatusMachine,
  model,
  driver: appStatusModelDriver,
  events: {
    'start.online': 'The app opens with a connection.',
    'start.offline': 'The app opens with no connection.',
    'network.online': 'The connection comes back.',
    'network.offline': 'The connection drops.',
    'update.found': 'A new version of the app is installed and waiting.',
    'update.apply': 'The person chooses "Reload to update".',
    'update.dismiss': 'The person chooses "Later".',
  },
  states: {
    starting: 'The app is not open yet.',
    online: 'No notice: connected, nothing new waiting.',
    offline: 'The offline notice is shown.',
    updateOffered: 'The update offer is shown; nothing has been swapped yet.',
    offlineUpdateOffered: 'The offline notice and the update offer are both shown.',
    updateDismissed: 'The offer is put away until the next version is found; nothing swapped.',
    updating: 'The new version is told to take over (once); the page reloads when it has.',
  },
});
