import { createMachine } from 'xstate';

/**
 * Abstract model of the catalogue machine: downloads that succeed or fail, the bundled
 * fallback, the refresh button and its 20-second cooldown, with no actors or delays. Driven
 * against the real machine by `catalogue-model-driver.ts`.
 */
export const catalogueModel = createMachine({
  id: 'catalogueModel',
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
      on: {
        'catalogue.refresh': 'refreshing',
        'catalogue.load': 'loading',
        'catalogue.refreshStays': 'ready',
        'landing.fails': 'ready',
      },
    },
    readyFallback: {
      on: { 'catalogue.refresh': 'refreshing', 'catalogue.load': 'loading' },
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
