import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configHistoryEntrySchema, configHistoryListSchema } from '../../contracts/config-history.ts';
import { devicePageSchema } from '../../contracts/devices.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let installerA: string;
let installerB: string;
let admin: string;
let serialOfA: string;

beforeAll(async () => {
  t = await startTestServer();
  installerA = (await t.login('installerA')).access_token;
  installerB = (await t.login('installerB')).access_token;
  admin = (await t.login('admin')).access_token;
  const page = devicePageSchema.parse(
    (await t.call('GET', `/config/fleet/sites/installs/${IDS.siteOfA}`, { token: installerA })).body,
  );
  const device = page.items[0];
  if (!device) throw new Error('site of installer A has no devices');
  serialOfA = device.serial;
});
afterAll(() => t.close());

const record = (overrides: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  writtenAt: '2026-03-04T13:05:00.000Z',
  transport: 'web-bluetooth',
  changes: [
    { field: 'workMode', label: 'Work mode', oldValue: '0', newValue: '2' },
    { field: 'batteryFloatVoltage', label: 'Float voltage', oldValue: '54', newValue: '55.5' },
  ],
  ...overrides,
});

const path = (serial: string) => `/config/fleet/devices/${serial}/config-history`;

describe('configuration history', () => {
  it('records a verified write with who made it, and reads it back newest first', async () => {
    const older = record({ writtenAt: '2026-03-01T08:00:00.000Z' });
    const newer = record();
    for (const body of [older, newer]) {
      const answer = await t.call('POST', path(serialOfA), { token: installerA, body });
      expect(answer.status).toBe(201);
      expect(configHistoryEntrySchema.parse(answer.body)).toMatchObject({
        id: body.id,
        serial: serialOfA,
        userId: IDS.installerA,
        userEmail: 'installer@solarpros.example',
        transport: 'web-bluetooth',
      });
    }
    const list = configHistoryListSchema.parse(
      (await t.call('GET', path(serialOfA), { token: installerA })).body,
    );
    const ids = list.history.map((e) => e.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(list.history.find((e) => e.id === newer.id)?.changes).toEqual(newer.changes);
  });

  it('stores a record sent twice (the offline queue retrying) only once', async () => {
    const body = record();
    expect((await t.call('POST', path(serialOfA), { token: installerA, body })).status).toBe(201);
    expect((await t.call('POST', path(serialOfA), { token: installerA, body })).status).toBe(201);
    const list = configHistoryListSchema.parse(
      (await t.call('GET', path(serialOfA), { token: installerA })).body,
    );
    expect(list.history.filter((e) => e.id === body.id)).toHaveLength(1);
  });

  it("answers 404 when an installer reads or writes another installer's device history", async () => {
    expect((await t.call('GET', path(serialOfA), { token: installerB })).status).toBe(404);
    expect((await t.call('POST', path(serialOfA), { token: installerB, body: record() })).status).toBe(404);
  });

  it('lets an admin read any device history', async () => {
    expect((await t.call('GET', path(serialOfA), { token: admin })).status).toBe(200);
  });

  it('refuses a record without changes, with a bad transport or a bad serial, naming the field', async () => {
    const empty = await t.call('POST', path(serialOfA), { token: installerA, body: record({ changes: [] }) });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('changes');
    const transport = await t.call('POST', path(serialOfA), {
      token: installerA,
      body: record({ transport: 'carrier-pigeon' }),
    });
    expect(transport.status).toBe(400);
    expect((await t.call('GET', path('not-a-serial'), { token: installerA })).status).toBe(400);
  });

  it('answers 409 when an id already names another record', async () => {
    const body = record();
    await t.call('POST', path(serialOfA), { token: installerA, body });
    expect((await t.call('POST', path(serialOfA), { token: admin, body })).status).toBe(409);
  });

  it('needs a signed-in caller', async () => {
    expect((await t.call('GET', path(serialOfA))).status).toBe(401);
  });
});
