import { createMachine } from 'xstate';
import { saveMachine } from '../../../machines/save/save-machine.ts';
import { defineModel } from '../paths/model-entry.ts';
import { saveModelDriver } from '../save-model-driver.ts';

/** Abstract model of one way to save: a change or an export, accepted or refused, the page shown again, the screen left. */
const model = createMachine({
  id: 'saveModel',
  initial: 'idle',
  states: {
    idle: { on: { 'change.save': 'saving', 'export.save': 'exporting' } },
    saving: {
      on: {
        'service.accepts': 'refreshing',
        'service.refuses': 'failed',
        'change.saveAgain': 'saving',
        'screen.left': 'left',
      },
    },
    exporting: { on: { 'service.accepts': 'exported', 'service.refuses': 'failed' } },
    refreshing: { on: { 'page.reloaded': 'saved', 'page.reloadFails': 'saved' } },
    saved: { on: { 'change.save': 'saving', 'save.dismiss': 'idle' } },
    exported: { on: { 'save.dismiss': 'idle' } },
    failed: { on: { 'change.save': 'saving', 'save.dismiss': 'idle' } },
    left: {},
  },
});

export default defineModel({
  name: 'save',
  title: 'One way to save (every form, change and export)',
  source: 'machines/save/save-machine.ts',
  about:
    "A change sent to a service, once however often the button is pressed: the page's loaders run again before the screen is told it is saved; a refusal shows the service's message and leaves the form as typed; an export skips the reload; leaving the screen aborts the call.",
  machine: saveMachine,
  model,
  driver: saveModelDriver,
  events: {
    'change.save': 'The person submits a form (or presses a button) that changes data.',
    'export.save': 'The person exports a list as CSV: nothing shown changes.',
    'change.saveAgain': 'The person presses the button again while the first press is on its way.',
    'service.accepts': 'The service accepts the change and answers the saved record.',
    'service.refuses': 'The service refuses with its message (a name already taken).',
    'page.reloaded': "The page's loaders have run again and show the change.",
    'page.reloadFails': 'A loader of the page fails (it shows its own error; the change is saved).',
    'save.dismiss': 'The person puts the message away (closes the alert, changes the form).',
    'screen.left': 'The person leaves the screen while the change is on its way, and its answer comes late.',
  },
  states: {
    idle: 'The form as typed; nothing is on its way, no message.',
    saving: 'The button is busy; one call is on its way, its abort signal not fired.',
    exporting: 'The export button is busy; the rows are being collected.',
    refreshing:
      'Saved: the page is being loaded again; the button is still busy and the screen not yet told.',
    saved:
      "Saved and shown: the screen was told once, with the service's answer (it closes a dialog or opens the record).",
    exported: 'The export is saved; no loader ran again.',
    failed:
      "The service's message is shown; the form keeps what was typed, the screen was not told of a save.",
    left: 'The call was aborted; the late answer told the screen nothing.',
  },
});
