import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configHistoryPageSchema } from '../../contracts/config-history.ts';
import { devicePageSchema } from '../../contracts/devices.ts';
import { HistoryQueue, type SendRecord } from '../../src/features/devices/configure/history-queue.ts';
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

/** The real configuration service behind a switch that takes the installer out of signal. */
function service() {
  const state = { online: true, calls: 0 };
  const send: SendRecord = async (serialNumber, record) => {
    state.calls += 1;
    if (!state.online) throw Object.assign(new TypeError('Failed to fetch'), { status: 0 });
    const answer = await t.call('POST', `/config/fleet/devices/${serialNumber}/config-history`, {
      token,
      body: record,
    });
    if (answer.status >= 400) throw Object.assign(new Error('refused'), { status: answer.status });
  };
  return { state, send };
}

const write = (newValue: string) => ({
  serialNumber: serial,
  transport: 'simulated' as const,
  changes: [{ field: 'workMode', label: 'Work mode', oldValue: '0', newValue }],
});

async function history() {
  return configHistoryPageSchema.parse(
    (await t.call('GET', `/config/fleet/devices/${serial}/config-history`, { token })).body,
  ).items;
}

describe('the configuration history queue', () => {
  it('sends a record at once when the service can be reached', async () => {
    const { send } = service();
    const queue = new HistoryQueue(send, { dbName: 'history-online' });
    expect(await queue.record(write('1'))).toBe('sent');
    expect(await queue.pending()).toEqual([]);
    expect((await history())[0]?.changes[0]?.newValue).toBe('1');
  });

  it('keeps records in IndexedDB while offline, across a reload, and sends them when back online', async () => {
    const { state, send } = service();
    state.online = false;
    const before = new HistoryQueue(send, { dbName: 'history-offline' });
    expect(await before.record(write('2'))).toBe('queued');
    expect(await before.record(write('3'))).toBe('queued');
    // A reload: a new queue over the same database still has both, oldest first.
    const after = new HistoryQueue(send, { dbName: 'history-offline' });
    expect((await after.pending()).map((q) => q.record.changes[0]?.newValue)).toEqual(['2', '3']);
    expect(await after.flush()).toBe(2);
    state.online = true;
    expect(await after.flush()).toBe(0);
    expect(await after.pending()).toEqual([]);
    const newValues = (await history()).map((e) => e.changes[0]?.newValue);
    expect(newValues).toEqual(expect.arrayContaining(['2', '3']));
  });

  it('drops a record the service refuses for good, so it does not block the ones after it', async () => {
    const queue = new HistoryQueue(
      async () => {
        throw Object.assign(new Error('Device not found'), { status: 404 });
      },
      { dbName: 'history-refused' },
    );
    expect(await queue.record(write('4'))).toBe('sent');
    expect(await queue.pending()).toEqual([]);
  });
});
