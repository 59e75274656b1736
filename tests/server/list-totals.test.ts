import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePageSchema } from '../../contracts/devices.ts';
import { sitePageSchema } from '../../contracts/sites.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

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

describe('list totals and deep pages', () => {
  it('counts what a scan would count, for every seeded user', async () => {
    for (const [who, id] of [
      ['installerA', IDS.installerA],
      ['installerB', IDS.installerB],
      ['owner', IDS.owner],
    ] as const) {
      const token = (await t.login(who)).access_token;
      const listed = await sitePage(token, `/fleet/site-list/${id}/0`);
      const scanned = await t.server.ctx.db
        .selectFrom('site_access')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', id)
        .where('access', '=', true)
        .executeTakeFirstOrThrow();
      expect(listed.total).toBe(Number(scanned.n));
    }
  });

  it('moves a deep page when a site before it leaves the list, and the total with it', async () => {
    const before = await sitePage(installer, `/fleet/site-list/${IDS.installerA}/2?pageSize=10`);
    const gone = (await sitePage(installer, `/fleet/site-list/${IDS.installerA}/0?pageSize=10`)).items[4];
    if (!gone) throw new Error('seed too small');
    await t.call('PUT', '/config/fleet/site-access/set-access', {
      token: admin,
      body: { siteId: gone.id, userId: IDS.installerA, access: false },
    });
    const after = await sitePage(installer, `/fleet/site-list/${IDS.installerA}/2?pageSize=10`);
    expect(after.total).toBe(before.total - 1);
    expect(after.items.map((site) => site.id)).toEqual([
      ...before.items.slice(1).map((site) => site.id),
      expect.any(Number),
    ]);
  });

  it('counts a new site and its devices for the admin and the installer at once', async () => {
    const all = await sitePage(admin, `/fleet/sites/all/${IDS.admin}/0`);
    const devicesBefore = devicePageSchema.parse(
      (await t.call('GET', `/config/fleet/devices/all/${IDS.admin}`, { token: admin })).body,
    );
    const created = await t.call('POST', '/config/sites', {
      token: installer,
      body: { name: 'Counted', displayAddress: '2 Main St, Austin, TX', latitude: 30, longitude: -97 },
    });
    expect(created.status).toBe(201);
    expect((await sitePage(admin, `/fleet/sites/all/${IDS.admin}/0`)).total).toBe(all.total + 1);
    const lastPage = Math.floor(all.total / 20);
    const last = await sitePage(admin, `/fleet/sites/all/${IDS.admin}/${lastPage}`);
    expect(last.items.at(-1)?.name).toBe('Counted');
    const devicesAfter = devicePageSchema.parse(
      (await t.call('GET', `/config/fleet/devices/all/${IDS.admin}`, { token: admin })).body,
    );
    expect(devicesAfter.total).toBe(devicesBefore.total);
    const beyond = await sitePage(admin, `/fleet/sites/all/${IDS.admin}/999`);
    expect(beyond.items).toEqual([]);
  });
});
