import { catalogueMachine } from '../../../machines/catalogue/catalogue-machine.ts';
import { catalogueModel } from '../catalogue-model.ts';
import { catalogueModelDriver } from '../catalogue-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

export default defineModel({
  name: 'catalogue',
  title: 'Device catalogue',
  source: 'machines/catalogue/catalogue-machine.ts',
  about:
    'Downloading the catalogue of device models, falling back to the bundled copy when the download fails, and the Refresh button with its 20-second cooldown.',
  machine: catalogueMachine,
  model: catalogueModel,
  driver: catalogueModelDriver,
  unreachable: {
    'refreshing.cache':
      'A refresh starts at the download (loadSteps("remote")): the cache step of a refresh is never entered.',
    'refreshing.cache → refreshing.remote on readCachedList answers':
      'A refresh starts at the download: the cache step of a refresh is never entered.',
    'refreshing.cache → refreshing.remote on readCachedList fails':
      'A refresh starts at the download: the cache step of a refresh is never entered.',
    'loading.cache → loading.remote on readCachedList fails':
      'readCachedList answers null for any storage or parse error; it fails only when its schema module cannot be loaded, which nothing in process brings about.',
  },
  events: {
    'download.ok': 'The configuration service sends the catalogue.',
    'download.fail': 'The catalogue download fails (the service answers 502).',
    'bundled.ok': 'The copy of the catalogue bundled with the app is read.',
    'bundled.fail': 'The bundled copy cannot be read either (HTTP 404).',
    'companions.fail':
      'The configuration service sends the catalogue, but its companion lists (E1 models, convert list) fail (HTTP 503).',
    'catalogue.refresh': 'The person presses Refresh on the catalogue.',
    'landing.fails': 'The person presses Refresh and the way to landing fails (the router refuses it).',
    'catalogue.refreshStays':
      'The person presses Refresh while a form holds edits, and answers "Stay" to the question.',
    'catalogue.load': 'The app asks for the catalogue again (a new sign-in).',
    'cooldown.elapsed': '20 seconds pass since the last refresh.',
  },
  states: {
    loading: 'Downloading the catalogue; Refresh is disabled.',
    fallback: 'The download failed: reading the bundled catalogue.',
    ready: 'The downloaded catalogue is shown; Refresh is enabled.',
    readyFallback: 'The bundled catalogue is shown with the download error; Refresh is enabled.',
    refreshing: 'Downloading again after Refresh, back at the landing page; Refresh is disabled.',
    refreshFallback: 'The refresh download failed: reading the bundled catalogue.',
    cooldown: 'The downloaded catalogue is shown; Refresh stays disabled for 20 seconds.',
    cooldownFallback: 'The bundled catalogue is shown; Refresh stays disabled for 20 seconds.',
    readyWithoutCompanions:
      'The downloaded catalogue is shown without its companion lists; Refresh is enabled.',
    cooldownWithoutCompanions:
      'The downloaded catalogue is shown without its companion lists; Refresh stays disabled for 20 seconds.',
    nothingToShow: 'No catalogue at all: the download error is shown; Refresh is enabled.',
    cooldownNothing:
      'No catalogue at all: the download error is shown; Refresh stays disabled for 20 seconds.',
  },
});
