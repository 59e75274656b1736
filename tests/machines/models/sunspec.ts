import { createMachine } from 'xstate';
import { sunspecConfigMachine } from '../../../machines/sunspec/sunspec-config-machine.ts';
import { defineModel } from '../paths/model-entry.ts';
import { sunspecModelDriver } from '../sunspec-model-driver.ts';

/** Abstract model of the SunSpec configurator: start-up, loading a device or definitions, edits. */
const model = createMachine({
  id: 'sunspecModel',
  initial: 'preparing',
  states: {
    preparing: {
      on: {
        'tools.ready': 'empty',
        'tools.fail': 'unavailable',
        'sunspec.loadDemo': 'demoAsked',
        'sunspec.loadDump': 'dumpAsked',
      },
    },
    unavailable: { on: { 'sunspec.retry': 'preparing' } },
    demoAsked: { on: { 'tools.ready': 'demo', 'tools.fail': 'unavailableAsked' } },
    unavailableAsked: { on: { 'sunspec.retry': 'demoAsked' } },
    dumpAsked: { on: { 'tools.ready': 'dumpShown' } },
    empty: { on: { 'sunspec.loadDemo': 'demo', 'sunspec.addDefinitions': 'definitionsRefused' } },
    definitionsRefused: {},
    demo: {
      on: {
        'sunspec.select': 'modelSelected',
        'sunspec.search': 'searched',
        'sunspec.edit': 'edited',
        'sunspec.editInvalid': 'invalidEdit',
        'sunspec.loadDump': 'dumpShown',
        'sunspec.loadBadDump': 'dumpRefused',
        'sunspec.addDefinitions': 'vendorDecoded',
      },
    },
    modelSelected: {},
    searched: {},
    edited: {
      on: { 'sunspec.apply': 'applied', 'sunspec.revert': 'reverted', 'sunspec.discard': 'discarded' },
    },
    invalidEdit: { on: { 'sunspec.revert': 'reverted' } },
    applied: { on: { 'sunspec.dismiss': 'dismissed' } },
    reverted: {},
    discarded: {},
    dumpRefused: { on: { 'sunspec.dismiss': 'dismissed' } },
    dismissed: {},
    dumpShown: {},
    vendorDecoded: {},
  },
});

export default defineModel({
  name: 'sunspec',
  title: 'SunSpec configurator',
  source: 'machines/sunspec/sunspec-config-machine.ts',
  about:
    'Preparing the SunSpec catalogue and codec, loading the demo device, a register dump or extra model definitions (one asked for while preparing waits for it), and keeping, reverting, discarding and applying edits to the demo device. The loads are the real ones.',
  machine: sunspecConfigMachine,
  model,
  driver: sunspecModelDriver,
  events: {
    'tools.ready': 'The SunSpec definitions and the Wasm codec are loaded.',
    'tools.fail': 'The codec cannot be fetched (HTTP 404).',
    'sunspec.retry': 'The person presses Retry.',
    'sunspec.loadDemo': 'The person loads the demo device.',
    'sunspec.loadDump': 'The person loads a register dump file of a device (inverter-40000.hex).',
    'sunspec.loadBadDump': 'The person loads a dump file with an odd number of hex digits (odd.hex).',
    'sunspec.addDefinitions': 'The person adds the definition file of vendor model 64900.',
    'sunspec.select': 'The person opens the inverter settings model (121).',
    'sunspec.search': 'The person searches the points for "WMax".',
    'sunspec.edit': 'The person sets VArAct of the settings model to 2.',
    'sunspec.editInvalid': 'The person types -1 for WMax.',
    'sunspec.revert': 'The person sets each edited point back.',
    'sunspec.discard': 'The person discards every pending edit.',
    'sunspec.apply': 'The person applies the edits to the demo device.',
    'sunspec.dismiss': 'The person dismisses the message.',
  },
  states: {
    preparing: 'Starting: the definitions and the codec are being loaded.',
    unavailable: 'The configurator cannot start: the reason is shown, with Retry.',
    demoAsked:
      'Still preparing; the demo device is asked for and waits: "Reading…", no second load can be asked.',
    unavailableAsked:
      'The configurator cannot start: the reason is shown, with Retry; the demo device still waits.',
    dumpAsked: 'Still preparing; the dump file is asked for and waits.',
    empty: 'Ready, nothing loaded yet.',
    definitionsRefused: 'Nothing loaded: "Load a device first, then add definitions."',
    demo: 'The demo device is shown, no edits pending.',
    modelSelected: 'The settings model is the one shown.',
    searched: 'The search holds "WMax".',
    edited: 'One valid pending edit (VArAct = 2); Apply is enabled.',
    invalidEdit: 'The edit is kept with "WMax (WMax) must be between 0 and 65534 W"; Apply is disabled.',
    applied: 'The demo device took 1 write request; VArAct now reads back as 2; no edits pending.',
    reverted: 'No edits pending, the demo device unchanged.',
    discarded: 'No edits pending, the demo device unchanged.',
    dumpRefused: 'The dump is refused with its reason; the demo device stays shown.',
    dismissed: 'No message shown.',
    dumpShown: 'The dump file is decoded and shown; there is no device to apply edits to.',
    vendorDecoded: 'Model 64900 is decoded with the added definition (Code = 0xBEEF).',
  },
});
