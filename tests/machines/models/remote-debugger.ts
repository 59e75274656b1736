import { createMachine } from 'xstate';
import { remoteDebuggerMachine } from '../../../machines/remote-debugger/debugger-machine.ts';
import { defineModel } from '../paths/model-entry.ts';
import { remoteDebuggerModelDriver } from '../remote-debugger-model-driver.ts';

/**
 * Abstract model of the Remote Debugger console. The real machine runs three regions at once
 * (device search, online list, console); the model walks them one thing at a time, as a person
 * meets them, branching like a tree so that each path tells one story.
 */
const model = createMachine({
  id: 'remoteDebuggerModel',
  initial: 'opening',
  states: {
    opening: {
      on: {
        'console.opens': 'noDevice',
        'console.opensWithoutOnlineList': 'onlineUnavailable',
        'console.opensOnlineFails': 'onlineFailed',
      },
    },
    onlineUnavailable: { on: { 'debugger.refreshOnline': 'onlineListedNow' } },
    onlineFailed: { on: { 'debugger.refreshOnline': 'onlineListedNow' } },
    onlineListedNow: {},
    noDevice: {
      on: {
        'debugger.search': 'typing',
        'debugger.refreshOnline': 'deviceWentOffline',
        'debugger.selectDevice': 'readyRemote',
        'debugger.selectDeviceNoCatalogue': 'productFailed',
      },
    },
    typing: { on: { 'search.pause': 'searching' } },
    searching: { on: { 'devices.found': 'found', 'search.fails': 'searchFailed' } },
    found: {},
    searchFailed: {},
    productFailed: {},
    deviceWentOffline: { on: { 'debugger.selectDevice': 'offlineNoPath' } },
    offlineNoPath: { on: { 'debugger.selectRemote': 'remoteRefused' } },
    remoteRefused: {},
    readyRemote: {
      on: {
        'debugger.send': 'sending',
        'debugger.sendBadHex': 'badFrameHeld',
        'debugger.opcode': 'opcodeTyped',
        'debugger.payloadMode': 'fieldsMode',
        'debugger.selectBluetooth': 'bluetoothPath',
        'debugger.loadLog': 'logLoaded',
        'debugger.loadBadLog': 'logRefused',
      },
    },
    opcodeTyped: {},
    fieldsMode: { on: { 'debugger.field': 'fieldSet' } },
    fieldSet: {},
    bluetoothPath: {},
    badFrameHeld: {},
    logLoaded: {},
    logRefused: { on: { 'debugger.dismissLogProblem': 'logProblemDismissed' } },
    logProblemDismissed: {},
    sending: {
      on: {
        'device.answers': 'answered',
        'device.offline': 'offlineLogged',
        'answer.timeout': 'timedOut',
        'debugger.cancel': 'cancelled',
        'debugger.selectOther': 'stillSending',
      },
    },
    stillSending: {},
    answered: { on: { 'debugger.clearLog': 'logCleared' } },
    offlineLogged: {},
    timedOut: {},
    cancelled: {},
    logCleared: {},
  },
});

export default defineModel({
  name: 'remote-debugger',
  title: 'Remote Debugger console',
  source: 'machines/remote-debugger/debugger-machine.ts',
  about:
    'Finding a device, knowing which devices are online, choosing how to reach one (remote, Bluetooth or the demo device), composing a frame, sending it and reading the answer or the reason there is none, and the log of every exchange (kept, cleared, saved and loaded). Frames are answered by the real device simulator.',
  machine: remoteDebuggerMachine,
  model,
  driver: remoteDebuggerModelDriver,
  events: {
    'console.opens': 'The console opens: the device search lists Roof and Barn, and Roof is online.',
    'console.opensWithoutOnlineList': 'The console opens against a service that offers no online list.',
    'console.opensOnlineFails': 'The console opens and reading the online list fails (HTTP 502).',
    'debugger.refreshOnline':
      'The person refreshes the online list: Roof is online now where no list was shown, or has gone away where it was listed.',
    'debugger.search': 'The person types " 000124 " in the device search.',
    'search.pause': '250 ms pass without another key (and not one less): the search is asked.',
    'devices.found': 'The search answers with Barn.',
    'search.fails': 'The search fails (HTTP 500).',
    'debugger.selectDevice': 'The person chooses Roof, and its catalogue entry loads.',
    'debugger.selectDeviceNoCatalogue':
      'The person chooses Roof, and its catalogue entry cannot be loaded (HTTP 503).',
    'debugger.selectRemote': 'The person tries the remote path for a device that is not online.',
    'debugger.selectBluetooth': 'The person chooses the Bluetooth path.',
    'debugger.opcode': 'The person types the opcode 10.',
    'debugger.payloadMode': 'The person switches the payload to named fields.',
    'debugger.field': 'The person sets the modbusAddress field to 7.',
    'debugger.sendBadHex': 'The person types the payload "12 xy" and presses Send.',
    'debugger.send': 'The person presses Send (read configuration, opcode 01).',
    'device.answers': "The device answers the frame (the simulator's real answer).",
    'device.offline': 'The device goes offline before it answers.',
    'answer.timeout': '10 seconds pass without an answer (and not one millisecond less).',
    'debugger.cancel': 'The person presses Cancel while waiting for the answer.',
    'debugger.selectOther': 'The person chooses Barn while the frame is still on its way.',
    'debugger.clearLog': 'The person clears the log.',
    'debugger.loadLog': 'The person loads a saved log file holding one exchange.',
    'debugger.loadBadLog': 'The person loads a JSON file that is not a saved log.',
    'debugger.dismissLogProblem': 'The person dismisses the message about the file.',
  },
  states: {
    opening: 'The console opened: searching all devices and reading the online list; no device chosen.',
    noDevice: 'Roof and Barn are listed, Roof marked online; no device chosen.',
    onlineUnavailable: 'No online list: the remote path is off; no error shown.',
    onlineFailed: '"Which devices are online could not be read: HTTP 502" is shown.',
    onlineListedNow: 'The online list is shown, with Roof in it.',
    deviceWentOffline: 'The online list is empty now.',
    typing: 'The search holds the text; nothing asked yet.',
    searching: 'The search asks for "000124" (trimmed).',
    found: 'Barn alone is listed.',
    searchFailed: '"The devices could not be searched: HTTP 500" is shown; the earlier list stays.',
    productFailed: "The device's catalogue entry could not be loaded: the reason is shown, Send is off.",
    readyRemote: 'Roof chosen, the remote path taken (it is online), a read-configuration frame composed.',
    offlineNoPath:
      'Roof chosen while it is not online: no path is taken until the person chooses Bluetooth or the demo device (never the demo device in its place unasked); Send is off and the remote path is refused.',
    remoteRefused: 'Still no path.',
    bluetoothPath: 'The Bluetooth path taken.',
    opcodeTyped: 'The composed frame starts with 10.',
    fieldsMode: 'The payload is entered as named fields.',
    fieldSet: 'The composed frame holds 7 at the modbusAddress position.',
    badFrameHeld:
      'Nothing sent and nothing logged: Send waits for a frame that can be built, and the draft says why it cannot (the payload is not hex).',
    sending: 'The frame is on its way to Roof by the remote path; Send is off.',
    stillSending: 'Still waiting for Roof: the other device is not chosen mid-exchange.',
    answered: 'The answer is decoded and logged as answered; the log is kept for the next visit.',
    offlineLogged: 'Logged as offline; the console is ready for the next frame.',
    timedOut: 'Logged: "No answer from the device within 10 s."',
    cancelled: 'Logged: "Cancelled before the device answered."',
    logCleared: 'The log is empty, and kept empty.',
    logLoaded: 'The log holds the saved exchange, and keeps it.',
    logRefused: 'The file is refused by name; the log is unchanged.',
    logProblemDismissed: 'The message is gone; the console is as it was.',
  },
});
