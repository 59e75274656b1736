import { connectionMachine } from '../../../machines/ble/connection-machine.ts';
import { bleConnectionModelDriver } from '../ble-model-drivers.ts';
import { bleConnectionModel } from '../ble-models.ts';
import { defineModel } from '../paths/model-entry.ts';

export default defineModel({
  name: 'ble-connection',
  title: 'Bluetooth connection',
  source: 'machines/ble/connection-machine.ts',
  about:
    'Connecting to a device through the chooser (or closing it), reading its configuration every 20 seconds, a dropped link coming back without the chooser or staying away, and disconnecting. Runs over the real device simulator and Wasm codec.',
  machine: connectionMachine,
  model: bleConnectionModel,
  driver: bleConnectionModelDriver,
  events: {
    'ble.connect': 'The person presses Connect and picks the device in the chooser.',
    'chooser.closed': 'The person presses Connect and closes the chooser without picking a device.',
    'interval.elapsed': '20 seconds pass while connected: the configuration is read again.',
    'link.dropped': 'The Bluetooth link drops (the device went out of range or restarted).',
    'backoff.elapsed': 'The device is back after the first 1-second wait: reconnected without the chooser.',
    'device.staysAway': 'The device stays away through every reconnection attempt (1, 2 and 4 seconds).',
    'device.back': 'The device is back and the person presses Reconnect.',
    'ble.disconnect': 'The person presses Disconnect.',
    'chooser.fails': 'The person presses Connect, but the chooser cannot open: Bluetooth is turned off.',
    'connect.outOfRange': 'The person picks the device, but it is out of range: the connection fails.',
    'connect.noService': 'The person picks a device that does not offer the configuration service.',
    'disconnect.whileConnecting':
      'The person picks the device and presses Disconnect before it is connected.',
    'disconnect.whileDiscovering':
      'The person picks the device and presses Disconnect while its services are read.',
    'ble.refresh': 'The person presses Read again.',
    'read.damaged': "The person presses Read again and the device's answer arrives with a bad CRC.",
    'config.written': 'A verified write hands over what it read back.',
  },
  states: {
    idle: 'Not connected, nothing to report.',
    chooserClosed: 'The chooser was closed: not connected, and no error (closing it is not a fault).',
    ready: "Connected, the device's configuration read and shown; the chooser was shown once.",
    readAgain: 'Still connected, and the configuration was read a second time.',
    reconnecting: 'The link dropped: trying again on its own (attempt 1), without the chooser.',
    reconnected: 'Connected again without the chooser, the configuration read again.',
    failed: 'The device stayed away: "out of range" is shown, with Reconnect offered.',
    disconnected: 'Disconnected by the person: idle, the link closed, nothing to report.',
    chooserFailed: '"Bluetooth is turned off." is shown; no device to reconnect to.',
    connectedAfterFailure: 'Connected after all, the configuration read; the earlier problem is gone.',
    connectFailed: '"The device is out of range." is shown.',
    discoverFailed: 'The missing service is named and the link is closed.',
    cancelledConnecting: 'Idle, nothing to report; the connection that ended late did not come back.',
    cancelledDiscovering: 'Idle, nothing to report, the link closed.',
    readOnRequest: 'Still connected, the configuration read again at once.',
    readFailed: 'Still connected; the damaged answer is reported and the next read will try again.',
    configHandedOver: 'Still connected, showing the configuration the write read back, without another read.',
  },
});
