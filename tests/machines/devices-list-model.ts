import { createMachine } from 'xstate';

/**
 * Abstract model of the devices-list machine: downloads that succeed or fail, the bundled
 * fallback, the refresh button and its 20-second cooldown, with no actors or delays. Driven
 * against the real machine by `devices-list-model-driver.ts`.
 */
export const devicesListModel = createMachine({
  id: 'devicesListModel',
  initial: 'loading',
  states: {
    loading: {
      on: {
        'download.ok': 'ready',
        'download.fail': 'fallback',
        'companions.fail': 'readyWithoutCompanions',
      },
    },
    fallback: {
      on: { 'bundled.ok': 'readyFallback', 'bundled.fail': 'nothingToShow' },
    },
    /** The catalogue downloaded, its companion lists did not: the catalogue is still shown. */
    readyWithoutCompanions: {},
    /** Neither the download nor the bundled copy could be read: the error is shown. */
    nothingToShow: {},
    ready: {
      on: { 'devicesList.refresh': 'refreshing', 'devicesList.load': 'loading' },
    },
    readyFallback: {
      on: { 'devicesList.refresh': 'refreshing', 'devicesList.load': 'loading' },
    },
    refreshing: {
      on: {
        'download.ok': 'cooldown',
        'download.fail': 'refreshFallback',
        'companions.fail': 'cooldownWithoutCompanions',
      },
    },
    refreshFallback: {
      on: { 'bundled.ok': 'cooldownFallback', 'bundled.fail': 'cooldownNothing' },
    },
    cooldownWithoutCompanions: {},
    cooldownNothing: {},
    cooldown: {
      on: { 'cooldown.elapsed': 'ready' },
    },
    cooldownFallback: {
      on: { 'cooldown.elapsed': 'readyFallback' },
    },
  },
});
