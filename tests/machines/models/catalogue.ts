import { devicesListMachine } from '../../../machines/devices-list/devices-list-machine.ts';
import { devicesListModel } from '../devices-list-model.ts';
import { devicesListModelDriver } from '../devices-list-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

export default defineModel({
  name: 'catalogue',
  title: 'Device catalogue (devices list)',
  source: 'machines/devices-list/devices-list-machine.ts',
  about:
    'Downloading the catalogue of device models, falling back to the bundled copy when the download fails, and the Refresh button with its 20-second cooldown.',
  machine: devicesListMachine,
  model: devicesListModel,
  driver: devicesListModelDriver,
  events: {
    'download.ok': 'The configuration service sends the catalogue.',
    'download.fail': 'The catalogue download fails (the service answers 502).',
    'bundled.ok': 'The copy of the catalogue bundled with the app is read.',
    'devicesList.refresh': 'The person presses Refresh on the catalogue.',
    'devicesList.load': 'The app asks for the catalogue again (a new sign-in).',
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
  },
});
