import { createMachine } from 'xstate';
import { templatesMachine } from '../../../machines/ble/templates-machine.ts';
import { closeCommissioningService, startCommissioningService } from '../commissioning-service.ts';
import { defineModel } from '../paths/model-entry.ts';
import { templatesModelDriver } from '../templates-model-driver.ts';

/**
 * Abstract model of a product's settings templates in the Configure panel: listed, saved under a
 * name (refused when the name is taken), imported from a file (refused when it is for another
 * product), chosen, renamed and deleted, and what a person does while the list is being read.
 */
const model = createMachine({
  id: 'templatesModel',
  initial: 'opening',
  states: {
    opening: {
      on: { 'list.read': 'listed', 'list.fails': 'unreachable', 'save.clicked': 'namingWhileOpening' },
    },
    namingWhileOpening: { on: { 'list.read': 'naming' } },
    unreachable: { on: { 'list.refresh': 'retrying' } },
    retrying: { on: { 'list.read': 'listed' } },
    listed: {
      on: {
        'save.clicked': 'naming',
        'template.chosen': 'chosen',
        'file.refused': 'fileRefused',
        'file.imported': 'importing',
      },
    },
    naming: { on: { 'dialog.cancelled': 'listed', 'name.taken': 'savingTaken', 'name.given': 'saving' } },
    savingTaken: { on: { 'service.answers': 'nameRefused' } },
    nameRefused: { on: { 'name.given': 'saving', 'dialog.cancelled': 'listed' } },
    saving: { on: { 'service.answers': 'savedReloading' } },
    importing: { on: { 'service.answers': 'savedReloading' } },
    savedReloading: { on: { 'list.read': 'saved' } },
    saved: {},
    fileRefused: {},
    chosen: { on: { 'rename.submitted': 'renaming', 'delete.pressed': 'askingDelete' } },
    askingDelete: { on: { 'delete.kept': 'chosen', 'delete.confirmed': 'deleting' } },
    renaming: { on: { 'service.answers': 'renamedReloading', 'save.clicked': 'renamingWithDialog' } },
    renamingWithDialog: { on: { 'service.answers': 'dialogKept' } },
    dialogKept: {},
    renamedReloading: { on: { 'list.read': 'renamed', 'delete.pressed': 'askingDeleteWhileReloading' } },
    askingDeleteWhileReloading: { on: { 'delete.confirmed': 'deletingWhileReloading' } },
    renamed: {},
    deleting: { on: { 'service.answers': 'deletedReloading' } },
    deletingWhileReloading: { on: { 'service.answers': 'deletedReloading' } },
    deletedReloading: { on: { 'list.read': 'deleted' } },
    deleted: {},
  },
});

export default defineModel({
  name: 'templates',
  title: 'Settings templates of a product (Configure panel)',
  source: 'machines/ble/templates-machine.ts',
  about:
    "The company's settings templates of the HX-5000: listed, the form's settings saved under a name, a file imported, one chosen to see what it would change, renamed and deleted, all through the app's calls to the configuration service in process, whose refusals (a name taken) keep the dialog open with the reason. Each path starts with one template, Standard. Writing a template to a device is the write machine's.",
  machine: templatesMachine,
  model,
  driver: templatesModelDriver,
  start: startCommissioningService,
  close: closeCommissioningService,
  events: {
    'list.read': 'The service answers with the templates of the HX-5000.',
    'list.fails': 'The templates cannot be read: the installer is out of signal for a moment.',
    'list.refresh': 'The list is asked for again.',
    'save.clicked': 'The person presses "Save as template" under the form (40 A, work mode 2).',
    'dialog.cancelled': 'The person closes the "Save as template" dialog.',
    'name.given': 'The person names the template "Night charge" and saves it.',
    'name.taken': 'The person names the template "Standard", a name the company has already, and saves it.',
    'template.chosen': 'The person presses "Apply…" on Standard, to see what it would change.',
    'rename.submitted': 'The person renames Standard to "Standard 2026".',
    'delete.pressed': 'The person presses "Delete" on Standard.',
    'delete.kept': 'The person answers "Keep it" in the dialog that asks.',
    'delete.confirmed': 'The person confirms with "Delete" in the dialog that asks.',
    'file.refused': "The person imports a file exported from a Basalt BX-10's template.",
    'file.imported': 'The person imports a file holding the HX-5000 template "Winter" (20 A).',
    'service.answers': 'The change reaches the configuration service, and its answer comes back.',
  },
  states: {
    opening: 'The panel opened: "Loading the templates…".',
    namingWhileOpening: 'The "Save as template" dialog is open while the list is still being read.',
    unreachable:
      '"The server could not be reached. Check the connection and try again." is shown, with no list.',
    retrying: 'Reading the list again; the message is gone.',
    listed: 'Standard is listed; no dialog, no message.',
    naming: 'The "Save as template" dialog, for 2 settings, over the list.',
    savingTaken: 'Saving "Standard"; the dialog is busy.',
    nameRefused:
      'The dialog stays open: "The template was not saved" with "A template of this product is already called "Standard"".',
    saving: 'Saving "Night charge"; the dialog is busy.',
    importing: 'Saving the imported "Winter"; no dialog.',
    savedReloading:
      'Saved: the dialog is closed, "Saved the template “…”." is shown and the list is read again.',
    saved: 'The new template is listed beside Standard, by name, with the settings it was saved with.',
    fileRefused:
      'The file is refused, saying it holds settings for the Basalt BX-10, not this product; the list is as it was.',
    chosen: 'Standard is chosen: what it would change on the device is shown.',
    renaming: 'Renaming Standard; the list is busy.',
    renamingWithDialog: 'The "Save as template" dialog opened while the rename is on its way.',
    dialogKept: 'The rename is done and the list read again; the dialog stays open with its settings.',
    renamedReloading: '"Renamed the template to “Standard 2026”." is shown and the list is read again.',
    renamed: 'Standard 2026 is listed, still chosen.',
    askingDelete: 'A dialog asks: "Delete the template “Standard”? What it wrote stays in the history."',
    askingDeleteWhileReloading: 'The dialog asks about Standard 2026 while the list is read again.',
    deleting: 'Deleting Standard; the dialog is closed and the list is busy.',
    deletingWhileReloading: 'Deleting Standard 2026, pressed while the list was being read again.',
    deletedReloading: '"Deleted the template." is shown and the list is read again.',
    deleted: 'No templates listed; nothing chosen.',
  },
});
