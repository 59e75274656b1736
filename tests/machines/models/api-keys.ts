import { expect } from 'vitest';
import { createActor, createMachine, waitFor } from 'xstate';
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '../../../contracts/api-keys.ts';
import { apiKeysMachine } from '../../../machines/account/api-keys-machine.ts';
import { controlledActor } from '../fakes.ts';
import { recordCoverage } from '../paths/coverage-recorder.ts';
import { defineModel, type ModelDriver } from '../paths/model-entry.ts';

/**
 * Abstract model of Account → API keys: the list, the create dialog, the key shown once, revoking.
 * A tree: each of the real machine's transitions ends one path, so the paths stay few.
 */
const model = createMachine({
  id: 'apiKeysModel',
  initial: 'loading',
  states: {
    loading: { on: { 'service.lists': 'listed', 'service.listFails': 'failed' } },
    failed: { on: { 'page.retry': 'reloading' } },
    reloading: { on: { 'service.lists': 'listedAfterRetry' } },
    listedAfterRetry: {},
    listed: { on: { 'dialog.open': 'editing', 'key.revoke': 'confirming' } },
    editing: {
      on: { 'form.sendBlank': 'nameMissing', 'name.fill': 'filled', 'dialog.cancel': 'createCancelled' },
    },
    nameMissing: {},
    createCancelled: {},
    filled: { on: { 'form.send': 'creating' } },
    creating: { on: { 'service.creates': 'shown', 'service.refuses': 'refused' } },
    refused: {},
    shown: { on: { 'list.reloaded': 'showing', 'list.reloadFails': 'showingOldList' } },
    showingOldList: {},
    showing: { on: { 'key.copy': 'copying', 'dialog.done': 'shownClosed' } },
    shownClosed: {},
    copying: { on: { 'clipboard.accepts': 'copied', 'clipboard.refuses': 'copyRefused' } },
    copied: {},
    copyRefused: {},
    confirming: { on: { 'revoke.confirm': 'revoking', 'revoke.cancel': 'revokeCancelled' } },
    revokeCancelled: {},
    revoking: { on: { 'service.revokes': 'revoked', 'service.revokeFails': 'revokeRefused' } },
    revokeRefused: {},
    revoked: {},
  },
});

const keyOf = (id: string, name: string): ApiKey => ({
  id,
  name,
  scope: 'read',
  createdAt: '2026-11-01T10:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
  lastUsedAddress: null,
});
const LISTED = [
  keyOf('0b4ad0e4-5b7e-4c55-9d0c-3f8f2a1c0001', 'Spreadsheet'),
  keyOf('0b4ad0e4-5b7e-4c55-9d0c-3f8f2a1c0002', 'Ticketing'),
];
const TEXT = `fm_pat_${'Q'.repeat(43)}`;
const CREATED: CreatedApiKey = {
  id: LISTED[0]?.id ?? '',
  name: 'Energy export',
  scope: 'write',
  expiresAt: null,
  key: TEXT,
};

/** Events and state checks that run one path against the real machine, its calls answered by hand. */
function driver(): ModelDriver {
  const list = controlledActor<ApiKey[], unknown>();
  const create = controlledActor<CreatedApiKey, CreateApiKeyRequest>();
  const revoke = controlledActor<string, { id: string }>();
  const copy = controlledActor<void, { text: string }>();
  const actor = createActor(
    apiKeysMachine.provide({
      actors: { list: list.logic, create: create.logic, revoke: revoke.logic, copy: copy.logic },
    }),
    { inspect: recordCoverage },
  ).start();
  const snap = () => actor.getSnapshot();
  let revokedId: string | null = null;
  const sendAndWait = async (event: Parameters<typeof actor.send>[0], calls: { calls: unknown[] }) => {
    const before = calls.calls.length;
    actor.send(event);
    await waitFor(actor, () => calls.calls.length === before + 1);
  };
  const listedWithNothingOpen = () => {
    expect(snap().matches({ ready: 'idle' })).toBe(true);
    expect(snap().context).toMatchObject({ keys: LISTED, created: null, copy: null, revoking: null });
  };
  const inDialog = (state: 'editing' | 'submitting') =>
    expect(snap().matches({ ready: { creating: state } })).toBe(true);
  return {
    events: {
      'service.lists': () => list.last().resolve(LISTED),
      'service.listFails': () => list.last().reject(new Error('Failed to fetch')),
      'page.retry': () => sendAndWait({ type: 'keys.retry' }, list),
      'dialog.open': () => actor.send({ type: 'keys.create' }),
      'form.sendBlank': () => {
        actor.send({ type: 'keys.edit', form: { name: '   ' } });
        actor.send({ type: 'keys.submit' });
      },
      'name.fill': () =>
        actor.send({ type: 'keys.edit', form: { name: ' Energy export ', scope: 'write', expiry: 'never' } }),
      'form.send': () => sendAndWait({ type: 'keys.submit' }, create),
      'dialog.cancel': () => actor.send({ type: 'keys.cancel' }),
      'service.creates': async () => {
        const before = list.calls.length;
        await create.last().resolve(CREATED);
        await waitFor(actor, () => list.calls.length === before + 1);
      },
      'service.refuses': () => create.last().reject(new Error('name must be at most 80 characters')),
      'list.reloaded': () => list.last().resolve(LISTED),
      'list.reloadFails': () => list.last().reject(new Error('Failed to fetch')),
      'dialog.done': () => actor.send({ type: 'keys.done' }),
      'key.copy': () => sendAndWait({ type: 'keys.copy' }, copy),
      'clipboard.accepts': () => copy.last().resolve(),
      'clipboard.refuses': () => copy.last().reject(new Error('Write permission denied.')),
      'key.revoke': () => {
        revokedId = snap().context.keys[0]?.id ?? null;
        actor.send({ type: 'keys.revoke', id: revokedId ?? '' });
      },
      'revoke.confirm': () => sendAndWait({ type: 'keys.confirm' }, revoke),
      'revoke.cancel': () => actor.send({ type: 'keys.cancel' }),
      'service.revokes': () => revoke.last().resolve(revoke.last().input.id),
      'service.revokeFails': () => revoke.last().reject(new Error('API key not found')),
    },
    states: {
      loading: () => {
        expect(snap().value).toBe('loading');
        expect(list.pending()).toHaveLength(1);
      },
      failed: () => {
        expect(snap().value).toBe('failed');
        expect(snap().context.loadError).toBe('Failed to fetch');
        expect(snap().can({ type: 'keys.create' })).toBe(false);
      },
      listed: listedWithNothingOpen,
      reloading: () => {
        expect(snap().value).toBe('loading');
        expect(list.calls).toHaveLength(2);
      },
      listedAfterRetry: listedWithNothingOpen,
      createCancelled: () => {
        listedWithNothingOpen();
        expect(create.calls).toHaveLength(0);
      },
      shownClosed: () => {
        listedWithNothingOpen();
        // Nothing of the shown key is kept once its dialog is closed.
        expect(JSON.stringify(snap().context)).not.toContain(TEXT);
      },
      revokeCancelled: () => {
        listedWithNothingOpen();
        expect(revoke.calls).toHaveLength(0);
      },
      showingOldList: () => {
        expect(snap().matches({ ready: { showing: 'waiting' } })).toBe(true);
        expect(snap().context).toMatchObject({ created: CREATED, keys: LISTED });
      },
      editing: () => {
        inDialog('editing');
        expect(snap().context).toMatchObject({
          form: { name: '', scope: 'read', expiry: '90' },
          nameError: null,
          error: null,
        });
      },
      nameMissing: () => {
        inDialog('editing');
        expect(snap().context.nameError).toBe('Give the key a name.');
        expect(create.pending()).toHaveLength(0);
      },
      filled: () => {
        inDialog('editing');
        expect(snap().context.form).toEqual({ name: ' Energy export ', scope: 'write', expiry: 'never' });
        expect(snap().context.nameError).toBeNull();
      },
      creating: () => {
        inDialog('submitting');
        expect(create.last().input).toEqual({ name: 'Energy export', scope: 'write', expiresInDays: null });
      },
      refused: () => {
        inDialog('editing');
        expect(snap().context.error).toBe('name must be at most 80 characters');
        expect(snap().context.form.name).toBe(' Energy export ');
      },
      shown: () => {
        expect(snap().matches({ ready: { showing: 'refreshing' } })).toBe(true);
        expect(snap().context.created?.key).toBe(TEXT);
        expect(snap().can({ type: 'keys.copy' })).toBe(false);
      },
      showing: () => {
        expect(snap().matches({ ready: { showing: 'waiting' } })).toBe(true);
        expect(snap().context).toMatchObject({ created: CREATED, copy: null });
      },
      copying: () => {
        expect(snap().matches({ ready: { showing: 'copying' } })).toBe(true);
        expect(copy.last().input).toEqual({ text: TEXT });
      },
      copied: () => {
        expect(snap().matches({ ready: { showing: 'waiting' } })).toBe(true);
        expect(snap().context.copy).toBe('copied');
      },
      copyRefused: () => {
        expect(snap().matches({ ready: { showing: 'waiting' } })).toBe(true);
        expect(snap().context.copy).toBe('refused');
        expect(snap().context.created?.key).toBe(TEXT);
      },
      confirming: () => {
        expect(snap().matches({ ready: { confirmingRevoke: 'asking' } })).toBe(true);
        expect(snap().context.revoking?.id).toBe(revokedId);
        expect(snap().context.error).toBeNull();
      },
      revoking: () => {
        expect(snap().matches({ ready: { confirmingRevoke: 'revoking' } })).toBe(true);
        expect(revoke.last().input).toEqual({ id: revokedId });
      },
      revokeRefused: () => {
        expect(snap().matches({ ready: { confirmingRevoke: 'asking' } })).toBe(true);
        expect(snap().context.error).toBe('API key not found');
        expect(snap().context.keys.some((key) => key.id === revokedId)).toBe(true);
      },
      revoked: () => {
        expect(snap().matches({ ready: 'idle' })).toBe(true);
        expect(snap().context.keys).toEqual(LISTED.slice(1));
      },
    },
  };
}

export default defineModel({
  name: 'api-keys',
  title: 'Account → API keys',
  source: 'machines/account/api-keys-machine.ts',
  about:
    "A person's API keys are read, a key is made in a dialog (a name is required) and its text shown once with a copy button, and a key is revoked after a confirmation; failures keep the dialog and what was typed.",
  machine: apiKeysMachine,
  model,
  driver,
  events: {
    'service.lists': 'The configuration service answers the list of keys (two keys).',
    'service.listFails': 'The list cannot be read (the network is down).',
    'page.retry': 'The person presses "Try again".',
    'dialog.open': 'The person presses "Create key".',
    'form.sendBlank': 'The person sends the form with a name of spaces only.',
    'name.fill': 'The person names the key, chooses read and write, and no expiry.',
    'form.send': 'The person presses "Create key" in the dialog.',
    'dialog.cancel': 'The person closes the dialog without sending.',
    'service.creates': 'The service makes the key and answers its text.',
    'service.refuses': 'The service refuses the key with its message.',
    'list.reloaded': 'The list behind the dialog is read again.',
    'list.reloadFails': 'Reading the list again fails (the old list stays).',
    'dialog.done': 'The person closes the dialog that shows the key.',
    'key.copy': 'The person presses "Copy key".',
    'clipboard.accepts': 'The browser puts the key on the clipboard.',
    'clipboard.refuses': 'The browser refuses the clipboard.',
    'key.revoke': 'The person presses "Revoke" on the first key listed.',
    'revoke.confirm': 'The person confirms the revocation.',
    'revoke.cancel': 'The person cancels the revocation.',
    'service.revokes': 'The service revokes the key.',
    'service.revokeFails': 'The service refuses (the key is already gone).',
  },
  states: {
    loading: 'The list is being read.',
    failed: 'The list could not be read: its message and "Try again"; no key can be made.',
    listed: 'The list of keys; no dialog open.',
    reloading: 'The list is being read again after "Try again".',
    listedAfterRetry: 'The list, read on the second try.',
    createCancelled: 'The create dialog was closed; nothing was sent.',
    shownClosed: 'The dialog that showed the key was closed; nothing of the key is kept.',
    revokeCancelled: 'The revocation was cancelled; nothing was sent.',
    showingOldList: 'The key is shown; reading the list again failed, the old list stays.',
    editing: 'The create dialog with an empty name, read only, 90 days.',
    nameMissing: 'The dialog says "Give the key a name."; nothing was sent.',
    filled: 'The dialog holds the name as typed, read and write, no expiry.',
    creating: 'The trimmed name, scope and no expiry are being sent.',
    refused: "The dialog again with the service's message and the name as typed.",
    shown: 'The new key is shown once while the list is read again behind it.',
    showing: 'The key is shown with its copy button.',
    copying: 'The key is being put on the clipboard.',
    copied: 'The key is on the clipboard; the button says so.',
    copyRefused: 'The clipboard refused: the key stays shown to copy by hand.',
    confirming: 'The revoke dialog names the key.',
    revoking: 'The revocation is being sent.',
    revokeRefused: "The revoke dialog with the service's message; the key is still listed.",
    revoked: 'The key is gone from the list.',
  },
});
