import { createMachine } from 'xstate';
import { readMachine } from '../../../machines/read/read-machine.ts';
import { defineModel } from '../paths/model-entry.ts';
import { readModelDriver } from '../read-model-driver.ts';

/** Abstract model of one read a view shows: answered, failed and tried again, or left. */
const model = createMachine({
  id: 'readModel',
  initial: 'reading',
  states: {
    reading: { on: { 'read.answers': 'read', 'read.fails': 'failed', 'view.leaves': 'left' } },
    read: {},
    failed: { on: { 'read.retry': 'readingAgain' } },
    readingAgain: { on: { 'read.answers': 'readAfterRetry', 'read.fails': 'failed' } },
    readAfterRetry: {},
    left: {},
  },
});

export default defineModel({
  name: 'read',
  title: 'One read a view shows (a profile, a device to configure, the devices online)',
  source: 'machines/read/read-machine.ts',
  about:
    "A read of the view's input: answered, or failed with its error shown in place and read again from the start on Try again, with the same input; leaving the view aborts it.",
  machine: readMachine,
  model,
  driver: readModelDriver,
  events: {
    'read.answers': 'The service (or the bundled file) answers.',
    'read.fails': 'The read fails (HTTP 503, a lost connection).',
    'read.retry': 'The person presses Try again.',
    'view.leaves': 'The person closes the dialog or leaves the screen while the read is on its way.',
  },
  states: {
    reading: 'A loader; one read of the input is on its way.',
    read: 'What was read is shown.',
    failed: 'The failure is shown with Try again.',
    readingAgain: 'A loader again, the failure gone; a second read of the same input is on its way.',
    readAfterRetry: 'What the second read answered is shown.',
    left: 'The read was aborted (its signal fired); nothing is shown.',
  },
});
