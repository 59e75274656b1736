import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { devicePageSchema } from '../../contracts/devices.ts';
import { configHistoryMachine } from '../../machines/ble/config-history-machine.ts';
import type { ApiClient } from '../../src/api/api-client.ts';
import { createConfigHistoryActors } from '../../src/features/devices/configure/config-history-actors.ts';
import { HistoryQueue } from '../../src/features/devices/configure/history-queue.ts';
import { IDS, startTestServer, type TestServer } from '../server/harness.ts';

let t: TestServer;
let token: string;
let serial: string;
beforeAll(async () => {
  t = await startTestServer();
  token = (await t.login('installerA')).access_token;
  const page = devicePageSchema.parse(
    (await t.call('GET', `/config/fleet/sites/installs/${IDS.siteOfA}`, { token })).body,
  );
  serial = page.items[0]?.serial ?? '';
});
afterAll(() => t.close());

/**
 * The configuration service as the app's client reaches it, behind a switch that takes the
 * installer out of signal, and a window whose `online` event the test fires.
 */
function service(dbName: string) {
  const state = { online: true };
  const configApi = (async (
    path: string,
    options: { method?: string; body?: unknown; query?: Record<string, string> } = {},
  ) => {
    if (!state.online) throw Object.assign(new TypeError('Failed to fetch'), { status: 0 });
    const search = new URLSearchParams(options.query ?? {}).toString();
    const answer = await t.call(options.method ?? 'GET', `/config${path}${search ? `?${search}` : ''}`, {
      token,
      body: options.body,
    });
    if (answer.status >= 400) throw Object.assign(new Error('refused'), { status: answer.status });
    return answer.body;
  }) as ApiClient;
  const queue = new HistoryQueue(
    (s, record) =>
      configApi(`/fleet/devices/${s}/config-history`, {
        method: 'POST',
        body: record,
      }).then(() => undefined),
    { dbName },
  );
  const target = new EventTarget() as unknown as Window;
  const actor = createActor(
    configHistoryMachine.provide({ actors: createConfigHistoryActors(configApi, queue, target) }),
    { input: { serial } },
  ).start();
  return { state, actor, target };
}

const write = (newValue: string) => ({
  serialNumber: serial,
  transport: 'web-bluetooth' as const,
  changes: [{ field: 'workMode', label: 'Work mode', oldValue: '0', newValue }],
});

const shown = (actor: ReturnType<typeof service>['actor']) => waitFor(actor, (s) => s.matches('shown'));

describe('the configuration history of a device', () => {
  it('reads the history, and after a verified write shows it newest first, as the installer who wrote it', async () => {
    const { actor } = service('history-machine-online');
    await shown(actor);
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'history.written', write: write('5') });
    await waitFor(actor, (s) => s.matches('shown') && s.context.entries?.[0]?.changes[0]?.newValue === '5');
    const { entries, waiting } = actor.getSnapshot().context;
    expect(entries?.[0]).toMatchObject({ serial, transport: 'web-bluetooth' });
    expect(entries?.[0]?.userEmail).toMatch(/@/);
    expect(waiting).toEqual([]);
    actor.stop();
  });

  it('keeps both of two writes recorded one right after the other', async () => {
    const { actor } = service('history-machine-two');
    await shown(actor);
    actor.send({ type: 'history.written', write: write('7') });
    actor.send({ type: 'history.written', write: write('8') });
    await waitFor(actor, (s) => {
      const values = (s.context.entries ?? []).map((e) => e.changes[0]?.newValue);
      return s.matches('shown') && values.includes('7') && values.includes('8');
    });
    actor.stop();
  });

  it('shows a write made without signal as waiting, says the history could not be loaded, and sends it once back online', async () => {
    const { state, actor, target } = service('history-machine-offline');
    await shown(actor);
    const before = actor.getSnapshot().context.entries?.length ?? 0;
    state.online = false;
    actor.send({ type: 'history.written', write: write('6') });
    await waitFor(actor, (s) => s.matches('shown') && s.context.waiting.length === 1);
    expect(actor.getSnapshot().context.waiting[0]?.changes[0]?.newValue).toBe('6');
    expect(actor.getSnapshot().context.error).toBeTruthy();
    // What was read before stays on screen.
    expect(actor.getSnapshot().context.entries).toHaveLength(before);
    state.online = true;
    target.dispatchEvent(new Event('online'));
    await waitFor(actor, (s) => s.matches('shown') && s.context.waiting.length === 0);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(actor.getSnapshot().context.entries?.[0]?.changes[0]?.newValue).toBe('6');
    actor.stop();
  });

  it('reads the history a page at a time: "more" adds the older pages until none is left', async () => {
    const { actor } = service('history-machine-pages');
    await shown(actor);
    // A device configured more often than one page holds (written straight into the table: the
    // service takes at most 20 records an hour for one device).
    for (let i = 0; i < 30; i++)
      await sql`INSERT INTO config_history (id, serial, user_id, user_email, transport, written_at, changes)
        VALUES (${randomUUID()}, ${serial}, ${IDS.installerA}, 'installer@solarpros.example', 'simulated',
                now(), ${JSON.stringify(write(`p${i}`).changes)}::jsonb)`.execute(t.server.ctx.db);
    actor.send({ type: 'history.refresh' });
    await waitFor(actor, (s) => s.matches('shown') && s.context.entries?.[0]?.changes[0]?.newValue === 'p29');
    const first = actor.getSnapshot().context.entries ?? [];
    expect(actor.getSnapshot().context.nextCursor).not.toBeNull();
    while (actor.getSnapshot().context.nextCursor !== null) {
      const before = actor.getSnapshot().context.entries?.length ?? 0;
      actor.send({ type: 'history.more' });
      await waitFor(actor, (s) => s.matches('shown') && (s.context.entries?.length ?? 0) > before);
    }
    const all = actor.getSnapshot().context.entries ?? [];
    expect(all.slice(0, first.length)).toEqual(first);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(actor.getSnapshot().can({ type: 'history.more' })).toBe(false);
    actor.stop();
  });
});
