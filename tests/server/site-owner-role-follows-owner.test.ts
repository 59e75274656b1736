import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Site, siteDetailsSchema, siteSchema } from '../../contracts/sites.ts';
import { userPageSchema } from '../../contracts/users.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let installer: string;
let admin: string;
let owner: string;
beforeAll(async () => {
  t = await startTestServer();
  installer = (await t.login('installerA')).access_token;
  admin = (await t.login('admin')).access_token;
  owner = (await t.login('owner')).access_token;
});
afterAll(() => t.close());

const payload = {
  name: 'Adebayo Farmhouse',
  displayAddress: '12 Mill Lane, Ashford TN24 8DH, UK',
  latitude: 51.1465,
  longitude: 0.8716,
};

async function createSite(body: Record<string, unknown>): Promise<Site> {
  const answer = await t.call('POST', '/config/sites', { token: installer, body });
  expect(answer.status).toBe(201);
  return siteSchema.parse(answer.body);
}

/** `[userId, roles, access]` of every access row, as the admin sees them. */
async function accessRows(siteId: number) {
  const answer = await t.call('GET', `/config/fleet/sites/${siteId}`, { token: admin });
  return siteDetailsSchema.parse(answer.body).access.map((row) => [row.userId, row.roles, row.access]);
}

async function newOwner(tag: string): Promise<number> {
  const answer = await t.call('POST', '/config/fleet/users/create-owner', {
    token: installer,
    body: { main_email: `owner.${tag}@follows.example`, name: `Owner ${tag}` },
  });
  expect(answer.status).toBe(202);
  // create-owner tells nothing about the account; the installer finds the new owner in their list.
  const list = await t.call(
    'GET',
    `/config/fleet/user-list/${IDS.installerA}/0?q=owner.${tag}%40follows.example`,
    {
      token: installer,
    },
  );
  const id = userPageSchema.parse(list.body).items[0]?.id;
  if (id === undefined) throw new Error(`owner.${tag} is not in the installer's list`);
  return id;
}

describe("a site's owner role follows its owner", () => {
  it('gives the owner named at creation the owner role in the same call', async () => {
    const site = await createSite({ ...payload, ownerId: IDS.owner });
    expect(await accessRows(site.id)).toEqual([
      [IDS.installerA, ['installer', 'configurator'], true],
      [IDS.owner, ['owner'], true],
    ]);
    expect((await t.call('GET', `/config/fleet/sites/${site.id}`, { token: owner })).status).toBe(200);
  });

  it('keeps the owner when a PUT leaves ownerId out', async () => {
    const site = await createSite({ ...payload, ownerId: IDS.owner });
    const updated = await t.call('PUT', `/config/sites/${site.id}`, {
      token: installer,
      body: { ...payload, name: 'Adebayo Barn' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Adebayo Barn', ownerId: IDS.owner });
    expect((await t.call('GET', `/config/fleet/sites/${site.id}`, { token: owner })).status).toBe(200);
  });

  it('takes the site from an owner cleared with ownerId null', async () => {
    const site = await createSite({ ...payload, ownerId: IDS.owner });
    const cleared = await t.call('PUT', `/config/sites/${site.id}`, {
      token: installer,
      body: { ...payload, ownerId: null },
    });
    expect(cleared.body).toMatchObject({ ownerId: null });
    expect(await accessRows(site.id)).toEqual([[IDS.installerA, ['installer', 'configurator'], true]]);
    expect((await t.call('GET', `/config/fleet/sites/${site.id}`, { token: owner })).status).toBe(403);
  });

  it('moves the owner role to a replacing owner, and the old owner keeps only other roles', async () => {
    const site = await createSite({ ...payload, ownerId: IDS.owner });
    await t.call('PUT', '/config/fleet/site-access/change-roles', {
      token: installer,
      body: { siteId: site.id, userId: IDS.owner, roles: ['owner', 'viewer'] },
    });
    const replacement = await newOwner('replacing');
    const replaced = await t.call('PUT', `/config/sites/${site.id}`, {
      token: installer,
      body: { ...payload, ownerId: replacement },
    });
    expect(replaced.body).toMatchObject({ ownerId: replacement });
    expect(await accessRows(site.id)).toEqual([
      [IDS.installerA, ['installer', 'configurator'], true],
      [IDS.owner, ['viewer'], true],
      [replacement, ['owner'], true],
    ]);
  });

  it("leaves exactly one owner role, the site owner's, after owner changes race each other", async () => {
    const site = await createSite({ ...payload, ownerId: IDS.owner });
    const owners = [await newOwner('race-1'), await newOwner('race-2'), await newOwner('race-3')];
    const answers = await Promise.all(
      [...owners, null].map((ownerId) =>
        t.call('PUT', `/config/sites/${site.id}`, { token: installer, body: { ...payload, ownerId } }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const details = siteDetailsSchema.parse(
      (await t.call('GET', `/config/fleet/sites/${site.id}`, { token: admin })).body,
    );
    const withOwnerRole = details.access
      .filter((row) => row.roles.includes('owner'))
      .map((row) => row.userId);
    expect(withOwnerRole).toEqual(details.ownerId === null ? [] : [details.ownerId]);
    expect(details.access.map((row) => row.userId)).not.toContain(IDS.owner);
  });

  it('lets an owner edit their site but not hand it to someone else', async () => {
    const site = await createSite({ ...payload, ownerId: IDS.owner });
    const edited = await t.call('PUT', `/config/sites/${site.id}`, {
      token: owner,
      body: { ...payload, name: 'Our Farmhouse' },
    });
    expect(edited.status).toBe(200);
    const handedOver = await t.call('PUT', `/config/sites/${site.id}`, {
      token: owner,
      body: { ...payload, ownerId: null },
    });
    expect(handedOver.status).toBe(403);
    expect(handedOver.body).toMatchObject({ code: 'site_role_forbidden' });
    expect(await accessRows(site.id)).toContainEqual([IDS.owner, ['owner'], true]);
  });
});
