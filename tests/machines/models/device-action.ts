import { createMachine } from 'xstate';
import { deviceActionMachine } from '../../../machines/commissioning/device-action-machine.ts';
import { closeCommissioningService, startCommissioningService } from '../commissioning-service.ts';
import { deviceActionModelDriver } from '../device-action-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

/**
 * Abstract model of the actions on a device's page: rename, move, replace and take off, each
 * confirmed in a dialog, run once, and refused with the service's reason (a replacement serial
 * installed elsewhere, a device another tab took off meanwhile).
 */
const model = createMachine({
  id: 'deviceActionModel',
  initial: 'idle',
  states: {
    idle: {
      on: {
        'open.rename': 'renameDialog',
        'open.move': 'moveDialog',
        'open.replace': 'replaceDialog',
        'open.remove': 'removeDialog',
      },
    },
    closed: {},
    closedAfterChange: {},
    closedAfterReplace: {},
    renameDialog: { on: { 'dialog.cancel': 'closed', 'rename.confirm': 'renaming' } },
    renaming: { on: { 'dialog.cancel': 'stillRenaming', 'service.answers': 'renamed' } },
    stillRenaming: { on: { 'service.answers': 'renamed' } },
    renamed: { on: { 'page.reloaded': 'closedAfterChange' } },
    moveDialog: { on: { 'move.confirm': 'moving' } },
    moving: { on: { 'service.answers': 'moved' } },
    moved: { on: { 'page.reloadFails': 'closedAfterChange' } },
    replaceDialog: { on: { 'replace.confirmTaken': 'replacingTaken', 'replace.confirm': 'replacing' } },
    replacingTaken: { on: { 'service.answers': 'replaceRefused' } },
    replaceRefused: { on: { 'replace.confirm': 'replacing', 'dialog.cancel': 'closed' } },
    replacing: { on: { 'service.answers': 'replaced' } },
    replaced: { on: { 'dialog.cancel': 'closedAfterReplace' } },
    removeDialog: { on: { 'other.removes': 'removeDialogGone', 'remove.confirm': 'removing' } },
    removeDialogGone: { on: { 'remove.confirm': 'removingGone' } },
    removingGone: { on: { 'service.answers': 'removeRefused' } },
    removeRefused: {},
    removing: { on: { 'service.answers': 'removed' } },
    removed: { on: { 'open.rename': 'renameAfterRemoval' } },
    renameAfterRemoval: { on: { 'rename.confirm': 'renamingRemoved' } },
    renamingRemoved: { on: { 'service.answers': 'renameRefused' } },
    renameRefused: {},
  },
});

export default defineModel({
  name: 'device-action',
  title: "Rename, move, replace and take off a device (its page's actions)",
  source: 'machines/commissioning/device-action-machine.ts',
  about:
    "The actions on a device's page, each in a dialog that says what happens to the history: confirmed, run once against the configuration service in process (the app's own calls), and refused with the service's reason with the dialog kept open; a rename or move reruns the page's loaders, as every save does, and then closes the dialog. Each path has a device of its own, Roof, on installer A's site.",
  machine: deviceActionMachine,
  model,
  driver: deviceActionModelDriver,
  start: startCommissioningService,
  close: closeCommissioningService,
  events: {
    'open.rename': 'The person presses "Rename device".',
    'open.move': 'The person presses "Move to another site".',
    'open.replace': 'The person presses "Replace with a new unit".',
    'open.remove': 'The person presses "Take off this site".',
    'dialog.cancel': 'The person presses Cancel (or closes the dialog).',
    'page.reloaded': "The page's loaders have run again and show the device as changed.",
    'page.reloadFails': 'A loader of the page fails (it shows its own error; the change is saved).',
    'rename.confirm': 'The person types "Garage inverter" and confirms.',
    'move.confirm': 'The person chooses their other site and confirms.',
    'replace.confirmTaken':
      "The person types the serial of a unit that is on another installer's site, and confirms.",
    'replace.confirm': "The person types a new unit's serial (in lower case) and confirms.",
    'remove.confirm': 'The person confirms taking the device off the site.',
    'other.removes': 'In another tab, the device is taken off the site meanwhile.',
    'service.answers': 'The request reaches the configuration service, and its answer comes back.',
  },
  states: {
    idle: 'The device page, no dialog open.',
    closed: 'No dialog open; nothing was changed.',
    closedAfterChange:
      "No dialog open: it closed by itself once the page's loaders ran again (once), showing the device as the service has it now.",
    closedAfterReplace:
      "No dialog open; the page's loaders were not run again (the old unit's page is left for the new one's).",
    renameDialog: 'The rename dialog, saying the history stays with the device; no error.',
    moveDialog: 'The move dialog, listing the other sites; no error.',
    replaceDialog: "The replace dialog, asking for the new unit's serial; no error.",
    removeDialog: 'The dialog asking to take Roof off the site; no error.',
    removeDialogGone: 'The same dialog; the device is no longer on the site (the page does not know yet).',
    renaming: 'The rename is on its way; the dialog is busy.',
    stillRenaming: 'Still renaming: the dialog cannot be closed while the request is on its way.',
    moving: 'The move is on its way; the dialog is busy.',
    replacingTaken: 'The replacement is on its way; the dialog is busy.',
    replacing: 'The replacement is on its way; the dialog is busy.',
    removing: 'Taking the device off; the dialog is busy.',
    removingGone: 'Taking the device off; the dialog is busy.',
    renamingRemoved: 'The rename is on its way; the dialog is busy.',
    renamed:
      'Saved: the device is called "Garage inverter" on the service; the page is being loaded again, the dialog still busy.',
    moved:
      "Saved: the device is on the installer's other site, still called Roof; the page is being loaded again, the dialog still busy.",
    replaceRefused:
      'The dialog stays open: "Nothing was changed" with "<serial> is installed at a site you cannot see; it must be taken off that site first".',
    replaced:
      "Done: the new unit has Roof's name and place and a secret of its own, shown once; the old unit is off the site.",
    removed: 'Done: the device is off the site (the page goes to the site).',
    removeRefused: 'The dialog stays open with "Device not found"; nothing else changed.',
    renameAfterRemoval: 'The rename dialog opens over the device just taken off; the result is gone.',
    renameRefused: 'The dialog stays open with "Device not found".',
  },
});
