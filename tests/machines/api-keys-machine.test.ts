import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '../../contracts/api-keys.ts';
import { apiKeysMachine } from '../../machines/account/api-keys-machine.ts';

const KEY: ApiKey = {
  id: '2f1c7c52-0d7e-4f43-9a4f-5d0f1a1e0c11',
  name: 'Spreadsheet',
  scope: 'read',
  createdAt: '2026-11-01T10:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
  lastUsedAddress: null,
};
const TEXT = `fm_pat_${'a'.repeat(43)}`;

/** The machine with fake services: a list that may fail, a create that records what it was sent. */
function start(options: { listFails?: number; createFails?: boolean; revokeFails?: boolean } = {}) {
  let listFailures = options.listFails ?? 0;
  let keys: ApiKey[] = [];
  const sent: CreateApiKeyRequest[] = [];
  const copied: string[] = [];
  const machine = apiKeysMachine.provide({
    actors: {
      list: fromPromise(async () => {
        if (listFailures-- > 0) throw new Error('The service is unreachable');
        return keys;
      }),
      create: fromPromise<CreatedApiKey, CreateApiKeyRequest>(async ({ input }) => {
        if (options.createFails) throw new Error('name must be at most 80 characters');
        sent.push(input);
        keys = [{ ...KEY, name: input.name, scope: input.scope }];
        return { id: KEY.id, name: input.name, scope: input.scope, expiresAt: null, key: TEXT };
      }),
      revoke: fromPromise<string, { id: string }>(async ({ input }) => {
        if (options.revokeFails) throw new Error('API key not found');
        keys = keys.filter((key) => key.id !== input.id);
        return input.id;
      }),
      copy: fromPromise<void, { text: string }>(async ({ input }) => {
        copied.push(input.text);
      }),
    },
  });
  return { actor: createActor(machine).start(), sent, copied };
}

describe('Account → API keys', () => {
  it('shows a failed load with a retry that reads again', async () => {
    const { actor } = start({ listFails: 1 });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.loadError).toBe('The service is unreachable');
    expect(actor.getSnapshot().can({ type: 'keys.create' })).toBe(false);
    actor.send({ type: 'keys.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.keys).toEqual([]);
  });

  it('refuses a blank name, sends the form, shows the key once and forgets it when closed', async () => {
    const { actor, sent, copied } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'keys.create' });
    actor.send({ type: 'keys.submit' });
    expect(actor.getSnapshot().context.nameError).toBe('Give the key a name.');
    actor.send({ type: 'keys.edit', form: { name: '  Spreadsheet ', scope: 'write', expiry: 'never' } });
    actor.send({ type: 'keys.submit' });
    await waitFor(actor, (s) => s.matches({ ready: { showing: 'waiting' } }));
    expect(sent).toEqual([{ name: 'Spreadsheet', scope: 'write', expiresInDays: null }]);
    expect(actor.getSnapshot().context.created?.key).toBe(TEXT);
    expect(actor.getSnapshot().context.keys.map((key) => key.name)).toEqual(['Spreadsheet']);
    actor.send({ type: 'keys.copy' });
    await waitFor(actor, (s) => s.context.copy === 'copied');
    expect(copied).toEqual([TEXT]);
    actor.send({ type: 'keys.done' });
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain(TEXT);
  });

  it("keeps the dialog and what was typed when the service refuses, with the service's message", async () => {
    const { actor } = start({ createFails: true });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'keys.create' });
    actor.send({ type: 'keys.edit', form: { name: 'Too long' } });
    actor.send({ type: 'keys.submit' });
    await waitFor(actor, (s) => s.matches({ ready: { creating: 'editing' } }) && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('name must be at most 80 characters');
    expect(actor.getSnapshot().context.form.name).toBe('Too long');
  });

  it('revokes only after a confirmation, and keeps the key listed when revoking fails', async () => {
    const ok = start();
    await waitFor(ok.actor, (s) => s.matches('ready'));
    ok.actor.send({ type: 'keys.create' });
    ok.actor.send({ type: 'keys.edit', form: { name: 'Spreadsheet' } });
    ok.actor.send({ type: 'keys.submit' });
    await waitFor(ok.actor, (s) => s.matches({ ready: { showing: 'waiting' } }));
    ok.actor.send({ type: 'keys.done' });
    ok.actor.send({ type: 'keys.revoke', id: KEY.id });
    expect(ok.actor.getSnapshot().context.revoking?.name).toBe('Spreadsheet');
    ok.actor.send({ type: 'keys.cancel' });
    expect(ok.actor.getSnapshot().context.keys).toHaveLength(1);
    ok.actor.send({ type: 'keys.revoke', id: KEY.id });
    ok.actor.send({ type: 'keys.confirm' });
    await waitFor(ok.actor, (s) => s.matches({ ready: 'idle' }));
    expect(ok.actor.getSnapshot().context.keys).toEqual([]);

    const failing = start({ revokeFails: true });
    await waitFor(failing.actor, (s) => s.matches('ready'));
    failing.actor.send({ type: 'keys.create' });
    failing.actor.send({ type: 'keys.edit', form: { name: 'Spreadsheet' } });
    failing.actor.send({ type: 'keys.submit' });
    await waitFor(failing.actor, (s) => s.matches({ ready: { showing: 'waiting' } }));
    failing.actor.send({ type: 'keys.done' });
    failing.actor.send({ type: 'keys.revoke', id: KEY.id });
    failing.actor.send({ type: 'keys.confirm' });
    await waitFor(failing.actor, (s) => s.context.error !== null);
    expect(failing.actor.getSnapshot().matches({ ready: { confirmingRevoke: 'asking' } })).toBe(true);
    expect(failing.actor.getSnapshot().context.keys).toHaveLength(1);
  });
});
