import { expect } from 'vitest';
import { createActor, createMachine, waitFor } from 'xstate';
import { alarmAcknowledgeMachine } from '../../../machines/monitoring/alarm-acknowledge-machine.ts';
import { controlledActor } from '../fakes.ts';
import { recordCoverage } from '../paths/coverage-recorder.ts';
import { defineModel, type ModelDriver } from '../paths/model-entry.ts';

/** Abstract model of acknowledging an alarm from a list: the dialog, a blank note, the service's answer. */
const model = createMachine({
  id: 'alarmAcknowledgeModel',
  initial: 'closed',
  states: {
    closed: { on: { 'dialog.open': 'editing' } },
    editing: { on: { 'note.blank': 'noteMissing', 'note.send': 'sending', 'dialog.cancel': 'closed' } },
    noteMissing: { on: { 'note.send': 'sending', 'dialog.cancel': 'closed' } },
    sending: { on: { 'service.accepts': 'reloading', 'service.refuses': 'refused' } },
    reloading: { on: { 'page.reloaded': 'acknowledged', 'page.reloadFails': 'acknowledged' } },
    refused: { on: { 'note.send': 'sending', 'dialog.cancel': 'closed' } },
    acknowledged: { on: { 'dialog.open': 'editing' } },
  },
});

const ALARMS = [41, 42];

/** Events and state checks that run one path against the real machine, its service call answered by hand. */
function driver(): ModelDriver {
  const acknowledge = controlledActor<void, { id: number; note: string }>();
  const refresh = controlledActor<void, unknown>();
  const actor = createActor(
    alarmAcknowledgeMachine.provide({ actors: { acknowledge: acknowledge.logic, refresh: refresh.logic } }),
    { inspect: recordCoverage },
  ).start();
  const snap = () => actor.getSnapshot();
  let opened = 0;
  let lastOpened = 0;
  return {
    events: {
      'dialog.open': () => {
        lastOpened = ALARMS[opened % ALARMS.length] as number;
        opened += 1;
        actor.send({ type: 'ack.open', alarmId: lastOpened });
      },
      'dialog.cancel': () => actor.send({ type: 'ack.cancel' }),
      'note.blank': () => actor.send({ type: 'ack.submit', note: '  \n ' }),
      'note.send': async () => {
        const before = acknowledge.calls.length;
        actor.send({ type: 'ack.submit', note: '  Engineer booked for Monday ' });
        await waitFor(actor, () => acknowledge.calls.length === before + 1);
      },
      'service.accepts': () => acknowledge.last().resolve(),
      'page.reloaded': () => refresh.last().resolve(),
      'page.reloadFails': () => refresh.last().reject(new Error('Failed to fetch')),
      'service.refuses': () =>
        acknowledge.last().reject(new Error('This alarm is not active: it was acknowledged or cleared.')),
    },
    states: {
      closed: () => {
        expect(snap().value).toBe('idle');
        expect(snap().context).toMatchObject({ alarmId: null, noteError: null, error: null });
      },
      editing: () => {
        expect(snap().value).toBe('editing');
        expect(snap().context).toMatchObject({ alarmId: lastOpened, noteError: null, error: null });
      },
      noteMissing: () => {
        expect(snap().value).toBe('editing');
        expect(snap().context.noteError).toMatch(/^Write a note/);
        expect(acknowledge.pending()).toHaveLength(0);
      },
      sending: () => {
        expect(snap().value).toBe('submitting');
        // The note goes trimmed, for the alarm whose dialog is open.
        expect(acknowledge.last().input).toEqual({ id: lastOpened, note: 'Engineer booked for Monday' });
        expect(snap().context.error).toBeNull();
      },
      refused: () => {
        expect(snap().value).toBe('editing');
        expect(snap().context).toMatchObject({
          alarmId: lastOpened,
          error: 'This alarm is not active: it was acknowledged or cleared.',
        });
      },
      reloading: () => {
        expect(snap().value).toBe('refreshing');
        expect(snap().context).toMatchObject({ alarmId: lastOpened, error: null });
        expect(refresh.pending()).toHaveLength(1);
      },
      acknowledged: () => {
        expect(snap().value).toBe('idle');
        expect(refresh.pending()).toHaveLength(0);
        expect(snap().context).toMatchObject({ alarmId: null, acknowledged: lastOpened, error: null });
      },
    },
  };
}

export default defineModel({
  name: 'alarm-acknowledge',
  title: 'Acknowledging an alarm (alarms list, Home, device details)',
  source: 'machines/monitoring/alarm-acknowledge-machine.ts',
  about:
    "A person opens an active alarm's dialog, writes why, and sends it; a blank note is refused before anything is sent, a refusal keeps the dialog open with the service's message.",
  machine: alarmAcknowledgeMachine,
  model,
  driver,
  events: {
    'dialog.open': 'The person presses Acknowledge on an active alarm (another alarm each time).',
    'dialog.cancel': 'The person closes the dialog without sending.',
    'note.blank': 'The person sends a note of spaces and line breaks only.',
    'note.send': 'The person sends a note with spaces around it.',
    'service.accepts': 'The monitoring service acknowledges the alarm.',
    'page.reloaded': "The page's loaders have run again; the lists show the alarm acknowledged.",
    'page.reloadFails': 'A loader of the page fails (it shows its own error; the alarm is acknowledged).',
    'service.refuses': 'The monitoring service refuses: the alarm is no longer active (409).',
  },
  states: {
    closed: 'No dialog is open.',
    editing: 'The dialog of the chosen alarm, an empty note, no error.',
    noteMissing: 'The dialog with "Write a note…" at the field; nothing was sent.',
    sending: 'The trimmed note is being sent for the chosen alarm; the button is busy.',
    reloading: "Acknowledged: the page's loaders run again (once); the dialog is still open and busy.",
    refused: "The dialog again with the service's message; the note stays as typed.",
    acknowledged:
      'The page has loaded again and the dialog closed; the alarm is remembered as the one acknowledged last.',
  },
});
