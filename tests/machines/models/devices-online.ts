import { createMachine } from 'xstate';
import { onlineDevicesMachine } from '../../../machines/devices-online/online-devices-machine.ts';
import { onlineDevicesModelDriver } from '../online-devices-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

/** Abstract model of the online badges: answers and failures, the 20-second poll and asking now. */
const model = createMachine({
  id: 'onlineDevicesModel',
  initial: 'opening',
  states: {
    opening: { on: { 'answer.online': 'shown', 'answer.fails': 'stale' } },
    shown: { on: { 'poll.elapsed': 'asking', 'online.refresh': 'asking' } },
    stale: { on: { 'poll.elapsed': 'askingAfterFailure', 'online.refresh': 'askingAfterFailure' } },
    asking: { on: { 'answer.online': 'shown', 'answer.fails': 'stale' } },
    askingAfterFailure: { on: { 'answer.online': 'shown' } },
  },
});

export default defineModel({
  name: 'devices-online',
  title: 'Devices online (the badges of the devices screens)',
  source: 'machines/devices-online/online-devices-machine.ts',
  about:
    'Which devices are online: asked when a devices screen opens, then every 20 seconds or when asked; a failed poll keeps the badges known, marked stale, until the next answer.',
  machine: onlineDevicesMachine,
  model,
  driver: onlineDevicesModelDriver,
  events: {
    'answer.online':
      'The configuration service answers with the serial numbers online now (a new one each time).',
    'answer.fails': 'The question fails (no signal, or the service is down).',
    'poll.elapsed': '20 seconds pass (and not one millisecond less) since the last answer.',
    'online.refresh': 'The screen asks now instead of waiting for the next poll.',
  },
  states: {
    opening: 'The screen opened: asking which devices are online, no badge yet.',
    shown: 'The badges show the devices of the last answer.',
    stale: 'The badges still show what was known, marked as maybe out of date.',
    asking: 'Asking again; the badges of the last answer stay meanwhile.',
    askingAfterFailure:
      'Asking again after a failure; the old badges stay, still marked as maybe out of date.',
  },
});
