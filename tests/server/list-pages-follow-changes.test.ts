import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Device, devicePageSchema } from '../../contracts/devices.ts';
import { sitePageSchema } from '../../contracts/sites.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

// List pages are answered from a per-process cache keyed by the list's version; these tests
// change rows behind the server's back (as another process or an operator would) and expect
// the very next read to show the change.
let t: TestServer;
let admin: string;
let installer: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = (await t.login('admin')).access_token;
  installer = (await t.login('installerA')).access_token;
});
afterAll(() => t.close());

const sitePage = async (token: string, path: string) =>
  sitePageSchema.parse((await t.call('GET', `/config${path}`, { token })).body);
const devicePage = async (token: string, path: string) =>
  devicePageSchema.parse((await t.call('GET', `/config${path}`, { token })).body);

describe('cached list pages', () => {
  it('shows a site renamed through the API on the next read of a page already read', async () => {
    const before = await sitePage(installer, `/fleet/site-list/${IDS.installerA}/0`);
    const site = before.items[2];
    if (!site) throw new Error('seed too small');
    const renamed = await t.call('PUT', `/config/sites/${site.id}`, {
      token: installer,
      body: { ...site, name: 'Renamed by the API', placeId: undefined, ownerId: undefined },
    });
    expect(renamed.status).toBe(200);
    const after = await sitePage(installer, `/fleet/site-list/${IDS.installerA}/0`);
    expect(after.items[2]?.name).toBe('Renamed by the API');
  });

  it('shows a site changed directly in the database, for its installer and for the admin', async () => {
    const mine = await sitePage(installer, `/fleet/site-list/${IDS.installerA}/0`);
    const all = await sitePage(admin, `/fleet/sites/all/${IDS.admin}/0`);
    const site = mine.items[0];
    if (!site || !all.items.some((s) => s.id === site.id)) throw new Error('seed changed');
    await t.server.ctx.db
      .updateTable('sites')
      .set({ name: 'Renamed in SQL' })
      .where('id', '=', site.id)
      .execute();
    expect((await sitePage(installer, `/fleet/site-list/${IDS.installerA}/0`)).items[0]?.name).toBe(
      'Renamed in SQL',
    );
    const again = await sitePage(admin, `/fleet/sites/all/${IDS.admin}/0`);
    expect(again.items.find((s) => s.id === site.id)?.name).toBe('Renamed in SQL');
  });

  it('shows a device renamed or moved directly in the database on the device lists', async () => {
    const before = await devicePage(installer, `/fleet/device-list/${IDS.installerA}/0`);
    const device = before.items[1];
    const otherSite = before.items.find((d) => d.siteId !== device?.siteId);
    if (!device || !otherSite) throw new Error('seed too small');
    await t.server.ctx.db
      .updateTable('devices')
      .set({ name: 'Renamed device' })
      .where('id', '=', device.id)
      .execute();
    const renamed = await devicePage(installer, `/fleet/device-list/${IDS.installerA}/0`);
    expect(renamed.items.find((d) => d.id === device.id)?.name).toBe('Renamed device');
    await t.server.ctx.db
      .updateTable('devices')
      .set({ site_id: otherSite.siteId })
      .where('id', '=', device.id)
      .execute();
    const moved = await devicePage(admin, `/fleet/devices/all/${IDS.admin}?pageSize=100`);
    expect(moved.items.find((d) => d.id === device.id)?.siteId).toBe(otherSite.siteId);
    for (const siteId of [device.siteId, otherSite.siteId]) {
      const details = await t.call('GET', `/config/fleet/sites/${siteId}`, { token: admin });
      const counted = await t.server.ctx.db
        .selectFrom('devices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('site_id', '=', siteId)
        .executeTakeFirstOrThrow();
      expect((details.body as { deviceCount: number }).deviceCount).toBe(Number(counted.n));
    }
  });

  it("drops a site's devices from a page already read when the access is switched off", async () => {
    const before = await devicePage(installer, `/fleet/device-list/${IDS.installerA}/0?pageSize=100`);
    const siteId = before.items[0]?.siteId;
    if (siteId === undefined) throw new Error('seed too small');
    const off = await t.call('PUT', '/config/fleet/site-access/set-access', {
      token: admin,
      body: { siteId, userId: IDS.installerA, access: false },
    });
    expect(off.status).toBe(200);
    const after = await devicePage(installer, `/fleet/device-list/${IDS.installerA}/0?pageSize=100`);
    expect(after.items.some((d) => d.siteId === siteId)).toBe(false);
    expect(after.total).toBe(before.total - before.items.filter((d) => d.siteId === siteId).length);
  });
});

describe('deep device pages', () => {
  const ordered = async (): Promise<number[]> => {
    const rows = await t.server.ctx.db
      .selectFrom('devices')
      .innerJoin('site_access', 'site_access.site_id', 'devices.site_id')
      .select('devices.id')
      .where('site_access.user_id', '=', IDS.installerB)
      .where('site_access.access', '=', true)
      .orderBy('devices.site_id')
      .orderBy('devices.id')
      .execute();
    return rows.map((row) => row.id);
  };

  it('answers any page, jumped to or walked to, as that slice of the whole list in order', async () => {
    const token = (await t.login('installerB')).access_token;
    const expected = await ordered();
    expect(expected.length).toBeGreaterThan(20);
    const size = 7;
    const jumped = await devicePage(token, `/fleet/device-list/${IDS.installerB}/3?pageSize=${size}`);
    expect(jumped.items.map((d) => d.id)).toEqual(expected.slice(3 * size, 4 * size));
    const walked: Device[] = [];
    for (let page = 0; page * size < expected.length; page += 1) {
      const answer = await devicePage(token, `/fleet/device-list/${IDS.installerB}/${page}?pageSize=${size}`);
      expect(answer.total).toBe(expected.length);
      walked.push(...answer.items);
    }
    expect(walked.map((d) => d.id)).toEqual(expected);
    const beyond = await devicePage(token, `/fleet/device-list/${IDS.installerB}/999?pageSize=${size}`);
    expect(beyond.items).toEqual([]);
  });

  it('moves a deep page when a device before it is deleted', async () => {
    const token = (await t.login('installerB')).access_token;
    const size = 5;
    const before = await devicePage(token, `/fleet/device-list/${IDS.installerB}/2?pageSize=${size}`);
    const first = (await ordered())[0];
    if (first === undefined) throw new Error('seed too small');
    await t.server.ctx.db.deleteFrom('devices').where('id', '=', first).execute();
    const after = await devicePage(token, `/fleet/device-list/${IDS.installerB}/2?pageSize=${size}`);
    expect(after.total).toBe(before.total - 1);
    expect(after.items.map((d) => d.id)).toEqual((await ordered()).slice(2 * size, 3 * size));
    expect(after.items[0]?.id).toBe(before.items[1]?.id);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('prepared statements on PostgreSQL', () => {
  it('keeps answering when a column is added under a prepared list query', async () => {
    await sitePage(installer, `/fleet/site-list/${IDS.installerA}/0?pageSize=3`);
    await sql`ALTER TABLE sites ADD COLUMN note text`.execute(t.server.ctx.db);
    await t.server.ctx.db
      .updateTable('sites')
      .set({ name: 'After the column' })
      .where('id', '=', IDS.siteOfA)
      .execute();
    const answer = await t.call('GET', `/config/fleet/site-list/${IDS.installerA}/0?pageSize=3`, {
      token: installer,
    });
    expect(answer.status).toBe(200);
    expect(sitePageSchema.parse(answer.body).items.length).toBe(3);
  });
});
