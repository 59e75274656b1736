import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Site, siteDetailsSchema, siteSchema } from '../../contracts/sites.ts';
import { userPageSchema } from '../../contracts/users.ts';
import { ONE_OWNER_SQL } from '../../server/db/migration-one-owner.ts';
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
    // The old owner holds no record of the site any more: it is not theirs to know of.
    expect((await t.call('GET', `/config/fleet/sites/${site.id}`, { token: owner })).status).toBe(404);
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

/** The site's owner as the site names it, and who holds the owner role, as the admin sees them. */
async function owners(siteId: number) {
  const details = siteDetailsSchema.parse(
    (await t.call('GET', `/config/fleet/sites/${siteId}`, { token: admin })).body,
  );
  return {
    ownerId: details.ownerId,
    withRole: details.access.filter((row) => row.roles.includes('owner')).map((row) => row.userId),
  };
}

const changeRoles = (siteId: number, userId: number, roles: string[]) =>
  t.call('PUT', '/config/fleet/site-access/change-roles', {
    token: installer,
    body: { siteId, userId, roles },
  });

describe('the owner role given with change-roles is the site owner', () => {
  it('makes the user given the Owner role the site owner, so the site never reads "No owner"', async () => {
    const site = await createSite(payload);
    expect(await owners(site.id)).toEqual({ ownerId: null, withRole: [] });
    expect((await changeRoles(site.id, IDS.owner, ['owner'])).status).toBe(200);
    expect(await owners(site.id)).toEqual({ ownerId: IDS.owner, withRole: [IDS.owner] });
  });

  it('moves ownership when another owner is given the role: the old owner loses it', async () => {
    const site = await createSite({ ...payload, ownerId: IDS.owner });
    const next = await newOwner('by-role');
    expect((await changeRoles(site.id, next, ['owner', 'viewer'])).status).toBe(200);
    expect(await owners(site.id)).toEqual({ ownerId: next, withRole: [next] });
    expect(await accessRows(site.id)).not.toContainEqual(expect.arrayContaining([IDS.owner]));
  });

  it('leaves the site without an owner when the role is taken from its owner, who stays attached', async () => {
    const site = await createSite({ ...payload, ownerId: IDS.owner });
    expect((await changeRoles(site.id, IDS.owner, ['viewer'])).status).toBe(200);
    expect(await owners(site.id)).toEqual({ ownerId: null, withRole: [] });
    expect(await accessRows(site.id)).toContainEqual([IDS.owner, ['viewer'], true]);
  });

  it('refuses the Owner role for an installer account with 400 naming roles', async () => {
    const site = await createSite({ ...payload, ownerId: IDS.owner });
    const admitted = await t.call('PUT', '/config/fleet/site-access/change-roles', {
      token: admin,
      body: { siteId: site.id, userId: IDS.installerB, roles: ['owner'] },
    });
    expect(admitted.status).toBe(400);
    expect(admitted.body).toMatchObject({ code: 'invalid_input', field: 'roles' });
    expect(await owners(site.id)).toEqual({ ownerId: IDS.owner, withRole: [IDS.owner] });
  });

  it('puts data written before the rule in step (migration 13)', async () => {
    const { db } = t.server.ctx;
    const roleOnly = await createSite(payload);
    const twoOwners = await createSite({ ...payload, ownerId: IDS.owner });
    const second = await newOwner('second');
    // What change-roles wrote before: the role without the site naming its owner, or a second holder.
    await db
      .insertInto('site_access')
      .values([
        { site_id: roleOnly.id, user_id: IDS.owner, roles: ['owner'], access: true },
        { site_id: twoOwners.id, user_id: second, roles: ['owner'], access: true },
      ])
      .execute();
    await sql.raw(ONE_OWNER_SQL).execute(db);
    expect(await owners(roleOnly.id)).toEqual({ ownerId: IDS.owner, withRole: [IDS.owner] });
    expect(await owners(twoOwners.id)).toEqual({ ownerId: IDS.owner, withRole: [IDS.owner] });
    expect(await accessRows(twoOwners.id)).toContainEqual([second, ['viewer'], true]);
  });
});
