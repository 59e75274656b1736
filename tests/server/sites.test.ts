import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteDetailsSchema, sitePageSchema, siteSchema } from '../../contracts/sites.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let installer: string;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  installer = (await t.login('installerA')).access_token;
  admin = (await t.login('admin')).access_token;
});
afterAll(() => t.close());

const payload = {
  name: 'Okafor Residence',
  displayAddress: '1600 Barton Springs Rd, Austin, TX 78704, USA',
  streetNumber: '1600',
  streetName: 'Barton Springs Rd',
  postalCode: '78704',
  locality: 'Austin',
  state: 'TX',
  country: 'US',
  latitude: 30.2642,
  longitude: -97.7614,
  placeId: 'ChIJ-example',
};

describe('sites', () => {
  it('creates a site for an installer, who then finds it in both lists', async () => {
    const created = await t.call('POST', '/config/sites', { token: installer, body: payload });
    expect(created.status).toBe(201);
    const site = siteSchema.parse(created.body);
    expect(site).toMatchObject({ name: payload.name, installerId: IDS.installerA, ownerId: null });
    const list = await t.call('GET', `/config/fleet/site-list/${IDS.installerA}/0?q=Okafor`, {
      token: installer,
    });
    expect(sitePageSchema.parse(list.body).items.map((item) => item.id)).toEqual([site.id]);
    const all = await t.call('GET', `/config/fleet/sites/all/${IDS.installerA}/0?q=okafor`, {
      token: installer,
    });
    expect(sitePageSchema.parse(all.body).total).toBe(1);
  });

  it('updates a site and attaches an owner, who then sees it', async () => {
    const created = siteSchema.parse(
      (await t.call('POST', '/config/sites', { token: installer, body: payload })).body,
    );
    const updated = await t.call('PUT', `/config/sites/${created.id}`, {
      token: installer,
      body: { ...payload, name: 'Okafor Home', ownerId: IDS.owner },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Okafor Home', ownerId: IDS.owner });
    const owner = (await t.login('owner')).access_token;
    const details = await t.call('GET', `/config/fleet/sites/${created.id}`, { token: owner });
    expect(details.status).toBe(200);
    // The owner sees only the users they may see: themself.
    const parsed = siteDetailsSchema.parse(details.body);
    expect(parsed.access.map((row) => [row.userId, row.roles])).toEqual([[IDS.owner, ['owner']]]);
    const asInstaller = await t.call('GET', `/config/fleet/sites/${created.id}`, { token: installer });
    expect(siteDetailsSchema.parse(asInstaller.body).access.map((row) => [row.userId, row.roles])).toEqual([
      [IDS.installerA, ['installer', 'configurator']],
      [IDS.owner, ['owner']],
    ]);
  });

  it('answers 400 naming the failing field of a bad site payload', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...payload, name: '' }, 'name'],
      [{ ...payload, latitude: 91 }, 'latitude'],
      [{ ...payload, longitude: 'east' }, 'longitude'],
      [{ ...payload, ownerId: IDS.installerB }, 'ownerId'],
    ];
    for (const [body, field] of cases) {
      const answer = await t.call('POST', '/config/sites', { token: installer, body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'invalid_input', field });
    }
  });

  it('answers 404 for a site that does not exist and 400 for an id that is not a number', async () => {
    expect((await t.call('GET', '/config/fleet/sites/999999', { token: admin })).status).toBe(404);
    const bad = await t.call('GET', '/config/fleet/sites/abc', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'id' });
  });

  it('pages in id order with the total, and the admin sees every site', async () => {
    const first = sitePageSchema.parse(
      (await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/0?pageSize=50`, { token: admin })).body,
    );
    const second = sitePageSchema.parse(
      (await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/1?pageSize=50`, { token: admin })).body,
    );
    expect(first.total).toBeGreaterThanOrEqual(124);
    expect(first.items).toHaveLength(50);
    expect(second.page).toBe(1);
    const ids = [...first.items, ...second.items].map((site) => site.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(100);
    const tooBig = await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/0?pageSize=1000`, {
      token: admin,
    });
    expect(tooBig.body).toMatchObject({ field: 'pageSize' });
    const negative = await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/-1`, { token: admin });
    expect(negative.body).toMatchObject({ field: 'page' });
  });

  it('stores and returns injection strings literally, and searches them literally', async () => {
    const name = `Robert'); DROP TABLE sites;-- <script>alert(1)</script> 100%_\\`;
    const created = await t.call('POST', '/config/sites', { token: installer, body: { ...payload, name } });
    expect(created.body).toMatchObject({ name });
    const found = await t.call(
      'GET',
      `/config/fleet/site-list/${IDS.installerA}/0?q=${encodeURIComponent("'); DROP")}`,
      {
        token: installer,
      },
    );
    expect(sitePageSchema.parse(found.body).items.map((site) => site.name)).toEqual([name]);
    const percent = await t.call(
      'GET',
      `/config/fleet/site-list/${IDS.installerA}/0?q=${encodeURIComponent('100%_')}`,
      {
        token: installer,
      },
    );
    expect(sitePageSchema.parse(percent.body).total).toBe(1);
    const all = await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/0`, { token: admin });
    expect(sitePageSchema.parse(all.body).total).toBeGreaterThan(124);
  });

  it('never answers a stack trace or SQL text for an unexpected body', async () => {
    const answer = await t.call('POST', '/config/sites', { token: installer, body: '[1,2,3]' });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.ts|select|insert/i);
  });

  it('answers 413 for a body over 64 KiB without storing anything', async () => {
    const before = sitePageSchema.parse(
      (await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/0`, { token: admin })).body,
    );
    const answer = await t.call('POST', '/config/sites', {
      token: installer,
      body: { ...payload, name: 'x'.repeat(70_000) },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: 'body_too_large' });
    const after = sitePageSchema.parse(
      (await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/0`, { token: admin })).body,
    );
    expect(after.total).toBe(before.total);
  });
});
