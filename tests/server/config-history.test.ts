import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConfigHistoryPage,
  configHistoryEntrySchema,
  configHistoryPageSchema,
  MAX_HISTORY_PAGE_BYTES,
} from '../../contracts/config-history.ts';
import { devicePageSchema } from '../../contracts/devices.ts';
import { REQUEST_LIMITS } from '../../server/limits/request-limits.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';
import { pinInFreshWindow } from './limit-window.ts';

let t: TestServer;
let installerA: string;
let installerB: string;
let owner: string;
let admin: string;
/** Devices on installer A's sites; the first is also on the owner's site. */
let ownersSerial: string;
let serials: string[];

beforeAll(async () => {
  t = await startTestServer();
  installerA = (await t.login('installerA')).access_token;
  installerB = (await t.login('installerB')).access_token;
  owner = (await t.login('owner')).access_token;
  admin = (await t.login('admin')).access_token;
  const ofSite = async (siteId: number) =>
    devicePageSchema
      .parse((await t.call('GET', `/config/fleet/sites/installs/${siteId}`, { token: installerA })).body)
      .items.map((d) => d.serial);
  [ownersSerial = ''] = await ofSite(IDS.siteOfOwner);
  serials = [
    ...(await ofSite(IDS.siteOfA)),
    ...(await ofSite(IDS.siteOfA + 1)),
    ...(await ofSite(IDS.siteOfA + 2)),
  ];
  if (!ownersSerial || serials.length < 4)
    throw new Error('the seed has too few devices on installer A’s sites');
});
afterAll(() => t.close());

const record = (overrides: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  writtenAt: new Date(Date.now() - 60_000).toISOString(),
  transport: 'web-bluetooth',
  changes: [
    { field: 'workMode', label: 'Work mode', oldValue: '0', newValue: '2' },
    { field: 'batteryFloatVoltage', label: 'Float voltage', oldValue: '54', newValue: '55.5' },
  ],
  ...overrides,
});

const path = (serial: string) => `/config/fleet/devices/${serial}/config-history`;
const post = (serial: string, token: string, body: unknown) => t.call('POST', path(serial), { token, body });
const page = async (serial: string, token: string, query = ''): Promise<ConfigHistoryPage> => {
  const answer = await t.call('GET', `${path(serial)}${query}`, { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return configHistoryPageSchema.parse(answer.body);
};

describe('configuration history', () => {
  it('records a verified write with who made it, and reads it back newest received first', async () => {
    // Received first, but written "later" by its clock: the order is the service's, not the app's.
    const first = record({ writtenAt: new Date(Date.now() + 60_000).toISOString() });
    const second = record({ writtenAt: new Date(Date.now() - 86_400_000).toISOString() });
    for (const body of [first, second]) {
      const answer = await post(ownersSerial, installerA, body);
      expect(answer.status).toBe(201);
      expect(configHistoryEntrySchema.parse(answer.body)).toMatchObject({
        id: body.id,
        serial: ownersSerial,
        userId: IDS.installerA,
        userEmail: 'installer@solarpros.example',
        transport: 'web-bluetooth',
        writtenAt: body.writtenAt,
      });
    }
    const { items } = await page(ownersSerial, installerA);
    const ids = items.map((e) => e.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(items.find((e) => e.id === second.id)?.changes).toEqual(second.changes);
  });

  it('stores a record sent twice (the offline queue retrying) only once', async () => {
    const body = record();
    expect((await post(ownersSerial, installerA, body)).status).toBe(201);
    expect((await post(ownersSerial, installerA, body)).status).toBe(201);
    const { items } = await page(ownersSerial, installerA);
    expect(items.filter((e) => e.id === body.id)).toHaveLength(1);
  });

  it("answers 404 when an installer reads or writes another installer's device history", async () => {
    expect((await t.call('GET', path(ownersSerial), { token: installerB })).status).toBe(404);
    expect((await post(ownersSerial, installerB, record())).status).toBe(404);
  });

  it('lets the site owner read the history but not write it: only those who configure the device do', async () => {
    expect((await page(ownersSerial, owner)).items.length).toBeGreaterThan(0);
    const forged = await post(ownersSerial, owner, record());
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ code: 'site_role_forbidden' });
    expect((await page(ownersSerial, installerA)).items.every((e) => e.userId !== IDS.owner)).toBe(true);
  });

  it('refuses a caller without the right before it reads the body: a bad body tells them nothing', async () => {
    const bad = { changes: 'not a list' };
    expect((await post(ownersSerial, installerB, bad)).status).toBe(404);
    const forged = await post(ownersSerial, owner, bad);
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ code: 'site_role_forbidden' });
    // The same body from someone who may record it is refused for what it is.
    expect((await post(ownersSerial, installerA, bad)).status).toBe(400);
  });

  it('lets an admin read and write any device history', async () => {
    expect((await t.call('GET', path(ownersSerial), { token: admin })).status).toBe(200);
    expect((await post(ownersSerial, admin, record())).status).toBe(201);
  });

  it('refuses a record without changes, with a bad transport or a bad serial, naming the field', async () => {
    const empty = await post(ownersSerial, installerA, record({ changes: [] }));
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ field: 'changes' });
    const transport = await post(ownersSerial, installerA, record({ transport: 'carrier-pigeon' }));
    expect(transport.status).toBe(400);
    expect((await t.call('GET', path('not-a-serial'), { token: installerA })).status).toBe(400);
  });

  // Each of these answered 500: PostgreSQL has no year 0 and no offset past ±15:59, and jsonb no
  // lone surrogate.
  it.each([
    ['a year 0 writtenAt', { writtenAt: '0000-01-01T00:00:00Z' }, 'writtenAt'],
    ['an offset of +23:59', { writtenAt: '2026-03-04T13:05:00+23:59' }, 'writtenAt'],
    ['a writtenAt in the year 9999', { writtenAt: '9999-12-31T23:59:59Z' }, 'writtenAt'],
    [
      'a writtenAt 10 minutes ahead',
      { writtenAt: new Date(Date.now() + 10 * 60_000).toISOString() },
      'writtenAt',
    ],
    [
      'a writtenAt 400 days back',
      { writtenAt: new Date(Date.now() - 400 * 86_400_000).toISOString() },
      'writtenAt',
    ],
    [
      'a lone surrogate in a label',
      { changes: [{ field: 'workMode', label: 'Work \ud800 mode', oldValue: '0', newValue: '1' }] },
      'changes.0.label',
    ],
    [
      'changes of more than 16 KiB',
      {
        changes: Array.from({ length: 100 }, (_, i) => ({
          field: `f${i}`,
          label: 'L'.repeat(100),
          oldValue: 'o'.repeat(60),
          newValue: 'n'.repeat(60),
        })),
      },
      'changes',
    ],
  ])('answers 400 naming the field for %s (it answered 500 or stored it)', async (_, overrides, field) => {
    const answer = await post(serials[0] ?? '', installerA, record(overrides));
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_input', field });
  });

  it('keeps the time the app sent, with an offset, as the instant it names', async () => {
    const now = new Date(Date.now() - 60_000);
    // The same instant written at +13:45 (the Chatham Islands' summer offset).
    const local = new Date(now.getTime() + (13 * 60 + 45) * 60_000).toISOString().slice(0, 19);
    const answer = await post(serials[0] ?? '', installerA, record({ writtenAt: `${local}+13:45` }));
    expect(answer.status).toBe(201);
    expect(configHistoryEntrySchema.parse(answer.body).writtenAt).toBe(
      `${now.toISOString().slice(0, 19)}.000Z`,
    );
  });

  it('answers 409 when an id already names another record', async () => {
    const body = record();
    await post(ownersSerial, installerA, body);
    expect((await post(ownersSerial, admin, body)).status).toBe(409);
  });

  it('needs a signed-in caller', async () => {
    expect((await t.call('GET', path(ownersSerial))).status).toBe(401);
  });
});

describe('reading the history a page at a time', () => {
  it('walks every entry once, newest received first, and ends with no next cursor', async () => {
    const serial = serials[1] ?? '';
    const posted: string[] = [];
    for (let i = 0; i < 5; i++) {
      const body = record();
      expect((await post(serial, installerA, body)).status).toBe(201);
      posted.unshift(body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const query: string = `?pageSize=2${cursor ? `&cursor=${cursor}` : ''}`;
      const next = await page(serial, installerA, query);
      expect(next.items.length).toBeLessThanOrEqual(2);
      seen.push(...next.items.map((e) => e.id));
      cursor = next.nextCursor;
    }
    expect(seen).toEqual(posted);
  });

  it('keeps records received within one clock tick in the order received', async () => {
    // One statement: every row gets the same received_at, as records a millisecond apart do on
    // the embedded database, whose clock ticks once a millisecond.
    const serial = serials[3] ?? '';
    const ids = Array.from({ length: 6 }, () => randomUUID());
    const rows = ids.map(
      (id) => sql`(${id}, ${serial}, ${IDS.admin}, 'admin@fleet.example', 'simulated', now(),
        '[{"field":"workMode","label":"Work mode","oldValue":"0","newValue":"1"}]'::jsonb)`,
    );
    await sql`INSERT INTO config_history (id, serial, user_id, user_email, transport, written_at, changes)
      VALUES ${sql.join(rows)}`.execute(t.server.ctx.db);
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const next = await page(serial, admin, `?pageSize=4${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...next.items.map((e) => e.id));
      cursor = next.nextCursor;
    }
    expect(seen.slice(0, ids.length)).toEqual([...ids].reverse());
  });

  it('ends a page early rather than answer more than the page cap', async () => {
    const serial = serials[2] ?? '';
    const heavy = () =>
      record({
        changes: Array.from({ length: 55 }, (_, i) => ({
          field: `f${i}`,
          label: 'L'.repeat(60),
          oldValue: 'o'.repeat(80),
          newValue: 'n'.repeat(80),
        })),
      });
    for (let i = 0; i < REQUEST_LIMITS.historyWritePerDevice.limit; i++)
      expect((await post(serial, admin, heavy())).status).toBe(201);
    const answer = await t.call('GET', `${path(serial)}?pageSize=50`, { token: admin });
    expect(JSON.stringify(answer.body).length).toBeLessThanOrEqual(MAX_HISTORY_PAGE_BYTES + 200);
    const first = configHistoryPageSchema.parse(answer.body);
    expect(first.items.length).toBeLessThan(REQUEST_LIMITS.historyWritePerDevice.limit);
    expect(first.nextCursor).not.toBeNull();
    const rest = await page(serial, admin, `?pageSize=50&cursor=${first.nextCursor}`);
    expect(first.items.length + rest.items.length).toBe(REQUEST_LIMITS.historyWritePerDevice.limit);
  });

  it('refuses a cursor it did not make, naming it', async () => {
    for (const cursor of ['abc', '99999999999999999', '1_0b6c3c1e-4a52-4d8e-9a43-3f1f0e6c2d11', '-1']) {
      const answer = await t.call('GET', `${path(ownersSerial)}?cursor=${cursor}`, { token: installerA });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ field: 'cursor' });
    }
  });
});

describe('limits on writing history', () => {
  it('refuses records for one device past its limit (it buried the real history), answering 429', async () => {
    const serial = serials[3] ?? '';
    const limit = REQUEST_LIMITS.historyWritePerDevice.limit;
    pinInFreshWindow(t.clock, REQUEST_LIMITS.historyWritePerDevice.windowSeconds);
    admin = (await t.login('admin')).access_token;
    for (let i = 0; i < limit; i++) expect((await post(serial, admin, record())).status).toBe(201);
    const over = await post(serial, admin, record());
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'rate_limited' });
    // Another device is not held back by it.
    expect((await post(serials[0] ?? '', admin, record())).status).toBe(201);
  });
});
