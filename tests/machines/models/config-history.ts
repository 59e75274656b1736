import { createMachine } from 'xstate';
import { configHistoryMachine } from '../../../machines/ble/config-history-machine.ts';
import { configHistoryModelDriver } from '../config-history-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

/** Abstract model of a device's configuration history: read, paged, recorded after a write, offline. */
const model = createMachine({
  id: 'configHistoryModel',
  initial: 'opening',
  states: {
    opening: {
      on: {
        'history.read': 'shown',
        'history.unreachable': 'offline',
        'load.crashes': 'loadFailed',
        'history.written': 'recording',
      },
    },
    shown: {
      on: { 'history.more': 'loadingOlder', 'history.refresh': 'reloading', 'history.written': 'recording' },
    },
    offline: { on: { 'network.back': 'reloading' } },
    loadFailed: {},
    loadingOlder: {
      on: { 'older.read': 'allShown', 'older.fails': 'olderFailed', 'history.written': 'recording' },
    },
    allShown: {},
    olderFailed: {},
    recording: {
      on: { 'record.sent': 'reloading', 'record.fails': 'reloading', 'history.written': 'recordingTwo' },
    },
    recordingTwo: { on: { 'record.sent': 'reloading' } },
    reloading: { on: { 'history.read': 'refreshed' } },
    refreshed: {},
  },
});

export default defineModel({
  name: 'config-history',
  title: 'Configuration history of a device',
  source: 'machines/ble/config-history-machine.ts',
  about:
    "A device's configuration history: read from the configuration service newest first a page at a time, the writes still waiting in the browser shown beside it, a verified write recorded (sent, or queued without signal) and the history read again.",
  machine: configHistoryMachine,
  model,
  driver: configHistoryModelDriver,
  events: {
    'history.read': 'The service answers with the newest page of the history (and the records sent since).',
    'history.unreachable':
      'The service cannot be reached; one write made without signal waits in the browser.',
    'load.crashes': 'Reading the history fails outright (the browser storage is not available).',
    'network.back': 'The browser comes back online.',
    'history.refresh': 'The person refreshes the history.',
    'history.more': 'The person asks for older changes.',
    'older.read': 'The service answers with the older page, which repeats one entry already shown.',
    'older.fails': 'The older page cannot be read (HTTP 502).',
    'history.written': 'A write to the device is verified on the Configure panel.',
    'record.sent': 'The record of the write reaches the service.',
    'record.fails': 'The record of the write cannot even be queued.',
  },
  states: {
    opening: 'The history panel opened: reading the history; nothing shown yet.',
    shown: 'The newest page is shown, with "older changes" offered.',
    offline: '"The configuration history could not be loaded." is shown, with the waiting write listed.',
    loadFailed: '"The configuration history could not be loaded." is shown.',
    reloading: 'Reading the history again.',
    refreshed: 'The history shown again, the written records first.',
    loadingOlder: 'Reading the page that starts where the shown one ends.',
    allShown: 'Every entry shown once, oldest last; no older changes to ask for.',
    olderFailed: '"The older configuration changes could not be loaded." is shown; what was shown stays.',
    recording: 'Recording the write; the history shown stays meanwhile.',
    recordingTwo: 'A second write while the first was recorded: both are on their way, neither dropped.',
  },
});
