import { createMachine } from 'xstate';
import { addDeviceMachine } from '../../../machines/commissioning/add-device-machine.ts';
import { addDeviceModelDriver } from '../add-device-model-driver.ts';
import { closeCommissioningService, startCommissioningService } from '../commissioning-service.ts';
import { defineModel } from '../paths/model-entry.ts';

/**
 * Abstract model of adding a device to a site: its serial and claim code typed from the label or
 * scanned from its QR code, or the serial read from the device over Bluetooth and the code typed;
 * claimed, or refused with the service's reason and everything kept.
 */
const model = createMachine({
  id: 'addDeviceModel',
  initial: 'empty',
  states: {
    empty: {
      on: {
        'save.pressed': 'needsSerial',
        'serial.typed': 'typed',
        'serial.typedTaken': 'typedTaken',
        'serial.typedBadCode': 'typedBadCode',
        'model.chosen': 'modelChosen',
        'scan.pressed': 'scanning',
        'bluetooth.pressed': 'choosing',
      },
    },
    needsSerial: { on: { 'serial.typed': 'typed' } },
    typed: { on: { 'name.typed': 'named', 'save.pressed': 'saving' } },
    named: { on: { 'save.pressed': 'saving' } },
    typedTaken: { on: { 'save.pressed': 'savingTaken' } },
    typedBadCode: { on: { 'save.pressed': 'badClaimCode' } },
    badClaimCode: { on: { 'claimCode.typed': 'typed' } },
    savingTaken: { on: { 'service.answers': 'refused' } },
    refused: { on: { 'serial.typed': 'typed' } },
    saving: { on: { 'service.answers': 'showingClaimed' } },
    showingClaimed: { on: { 'page.reloaded': 'installed', 'page.reloadFails': 'installed' } },
    installed: {},
    modelChosen: { on: { 'bluetooth.pressed': 'choosing' } },
    scanning: {
      on: {
        'camera.shows': 'previewing',
        'camera.refused': 'cameraRefused',
        'scan.stopped': 'scanStopped',
        'serial.typed': 'typedWhileScanning',
      },
    },
    previewing: { on: { 'code.read': 'scanned', 'code.readNotSerial': 'notASerial' } },
    typedWhileScanning: { on: { 'code.read': 'scanned' } },
    scanned: { on: { 'save.pressed': 'saving' } },
    notASerial: { on: { 'serial.typed': 'typed' } },
    cameraRefused: {},
    scanStopped: {},
    choosing: {
      on: {
        'device.chosen': 'readOver',
        'chooser.closed': 'noDeviceChosen',
        'reading.cancelled': 'readingCancelled',
      },
    },
    readOver: { on: { 'claimCode.typed': 'readOverWithCode' } },
    readOverWithCode: { on: { 'save.pressed': 'saving' } },
    noDeviceChosen: {},
    readingCancelled: { on: { 'device.chosenLate': 'lateIgnored' } },
    lateIgnored: {},
  },
});

export default defineModel({
  name: 'add-device',
  title: 'Adding a device to a site',
  source: 'machines/commissioning/add-device-machine.ts',
  about:
    "Adding a device to installer A's site: the serial and claim code typed from the label (the model following the serial's prefix) or scanned from the label's QR code with the camera, or the serial read from the device over Bluetooth through the real Web Bluetooth transport and device simulator and the code typed; named and claimed through the app's claim call to the configuration service in process, whose manufacturing list knows each unit's code, which puts the device on the site (no secret changes hands) or refuses a unit another company holds, keeping everything typed; once added, the page's loaders run again, as after every save.",
  machine: addDeviceMachine,
  model,
  driver: addDeviceModelDriver,
  start: startCommissioningService,
  close: closeCommissioningService,
  events: {
    'serial.typed':
      "The person types a new HX5K unit's serial, in lower case with spaces around it, and its claim code in lower case with spaces for dashes.",
    'serial.typedTaken':
      'The person types the serial and claim code of a unit another company claimed for its site.',
    'serial.typedBadCode': "The person types a new unit's serial and, as its claim code, 1234.",
    'claimCode.typed': "The person types the claim code from the device's label.",
    'name.typed': 'The person names the device "Garage inverter".',
    'model.chosen': 'The person chooses the Basalt BX-10 in the model list.',
    'save.pressed': 'The person presses "Add device".',
    'service.answers': 'The request reaches the configuration service, and its answer comes back.',
    'page.reloaded': "The site page's loaders have run again and list the new device.",
    'page.reloadFails': 'A loader of the page fails (it shows its own error; the device is added).',
    'scan.pressed': 'The person presses "Scan code".',
    'camera.shows': 'The camera opens and its picture shows in the dialog.',
    'code.read':
      "The camera reads the label's QR code: a new HX5K unit's serial and claim code (`sn:…;cc:…`), in lower case.",
    'code.readNotSerial': 'The camera reads a code that holds no serial (a Wi-Fi login).',
    'camera.refused': 'The browser refuses the camera.',
    'scan.stopped': 'The person presses "Stop scanning".',
    'bluetooth.pressed': 'The person presses "Read over Bluetooth": the browser\'s chooser opens.',
    'device.chosen': 'The person picks the device in the chooser; it advertises its serial.',
    'chooser.closed': 'The person closes the chooser without picking a device.',
    'reading.cancelled': 'The reading is called off while the chooser is still open.',
    'device.chosenLate': 'The person then picks a device in the chooser anyway.',
  },
  states: {
    empty: 'The dialog: no serial, the first model (HX-5000) chosen, no name, no message.',
    needsSerial:
      'The serial\'s field says "Give the serial number from the label.", the claim code\'s "Give the claim code from the label, printed beside the serial."; nothing is sent.',
    typed:
      "The serial and claim code as typed, the model following the serial's prefix (HX-5000); no message.",
    named: 'The serial, claim code and name as typed; no message.',
    typedTaken: "The serial and claim code as typed, the model following the serial's prefix; no message.",
    typedBadCode: 'The serial and the code 1234 as typed; no message.',
    badClaimCode:
      'The claim code\'s field says "The claim code has 16 letters and digits, printed on the label beside the serial (such as K7M2-Q9XD-4TRW-8HNB)."; nothing is sent.',
    modelChosen: 'The Basalt BX-10 is chosen; no serial yet.',
    saving:
      'Claiming the device: the serial trimmed, the claim code in its one form (capitals, no spaces or dashes) and the name (if any) are on their way; the button is busy.',
    savingTaken: 'Claiming the device; the button is busy.',
    refused:
      'The serial\'s field says "<serial> is on another company\'s site. It can be claimed here once they take it off that site: ask whoever installed it, or ask company staff to release it, giving the serial and the claim code on the label."; the serial, code and model stay as typed.',
    showingClaimed:
      "The device is claimed for the site, with when it was claimed and no secret; the site page's loaders are running again (once), behind the dialog.",
    installed:
      'The page has loaded again; the device is on the site, in capitals, named as typed or by its model, claimed; no secret was shown.',
    scanning: 'Looking for a code: the camera is asked for; no picture yet.',
    previewing: "The camera's picture is shown while a code is looked for.",
    typedWhileScanning: 'The typed serial shows in its field while the camera still looks for a code.',
    scanned:
      'The camera is off; the serial and claim code from the code are in their fields, in capitals, with the model.',
    notASerial:
      'The camera is off; "The code was not read": "The code holds “WIFI:…”, which is not a serial number (they look like HX5K-24-000123). Scan the serial\'s code, or type it." is shown.',
    cameraRefused:
      'The camera is off; "The code was not read": "The camera may not be used: allow it in the browser, or type the serial number." is shown.',
    scanStopped: 'The camera is off; the dialog as it was.',
    choosing:
      "The browser's chooser lists only devices of the chosen model (by serial prefix); the dialog waits.",
    readOver: 'The serial the device reported is in its field, with the chosen model; no message.',
    readOverWithCode:
      'The serial the device reported and the claim code typed are in their fields; no message.',
    noDeviceChosen: '"Nothing was read over Bluetooth": "No device was chosen."',
    readingCancelled: 'The dialog as it was; nothing read.',
    lateIgnored: 'Still as it was: the device picked after the reading was called off is not taken.',
  },
});
