import { createMachine } from 'xstate';
import { unsavedWorkMachine } from '../../../machines/unsaved-work/unsaved-work-machine.ts';
import { defineModel } from '../paths/model-entry.ts';
import { unsavedWorkModelDriver } from '../unsaved-work-model-driver.ts';

/** Abstract model of the leave guard: a form reports edits and clears them, the person leaves, stays or goes. */
const model = createMachine({
  id: 'unsavedWorkModel',
  initial: 'empty',
  states: {
    empty: { on: { 'form.edits': 'holding', 'person.leaves': 'leftFree' } },
    holding: { on: { 'form.edits': 'holding', 'form.saved': 'empty', 'person.leaves': 'asking' } },
    asking: { on: { 'person.stays': 'stayed', 'person.goes': 'left' } },
    stayed: { on: { 'form.saved': 'empty', 'person.leaves': 'asking' } },
    left: {},
    leftFree: { on: { 'form.edits': 'holding' } },
  },
});

export default defineModel({
  name: 'unsaved-work',
  title: 'The leave guard (unsaved work)',
  source: 'machines/unsaved-work/unsaved-work-machine.ts',
  about:
    "Work a screen would lose: forms report their edits and clear them once saved; leaving asks only while something is held, and answers the person's choice.",
  machine: unsavedWorkMachine,
  model,
  driver: unsavedWorkModelDriver,
  events: {
    'form.edits': 'The Edit site form reports edits (again and again as the person types).',
    'form.saved': 'The form clears its report: saved, reverted or closed.',
    'person.leaves': 'The person follows a link, presses back or refreshes the devices list.',
    'person.stays': 'The person answers "Stay".',
    'person.goes': 'The person answers "Leave".',
  },
  states: {
    empty: 'Nothing would be lost; no question.',
    holding: "The form's edits are held, once.",
    asking: 'The question is open, naming the form; no answer yet.',
    stayed: 'The person stayed: the edits are still held.',
    left: 'The person chose to leave, losing the edits.',
    leftFree: 'Left at once, asked nothing: nothing was held.',
  },
});
