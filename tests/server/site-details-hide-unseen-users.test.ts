import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteDetailsSchema, siteSchema } from '../../contracts/sites.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let tokens: Record<'admin' | 'installerA' | 'installerB' | 'owner', string>;
let siteId: number;
let switchedOff: number;

beforeAll(async () => {
  t = await startTestServer();
  tokens = {
    admin: (await t.login('admin')).access_token,
    installerA: (await t.login('installerA')).access_token,
    installerB: (await t.login('installerB')).access_token,
    owner: (await t.login('owner')).access_token,
  };
  // Installer A's site with its owner; the admin gives installer B a viewer role on it, and a
  // customer of installer B access that is then switched off.
  const site = await t.call('POST', '/config/sites', {
    token: tokens.installerA,
    body: {
      name: 'Lindqvist Cabin',
      displayAddress: 'Storgatan 4, 903 26 Umeå, Sweden',
      latitude: 63.8258,
      longitude: 20.263,
      ownerId: IDS.owner,
    },
  });
  siteId = siteSchema.parse(site.body).id;
  const invited = await t.call('POST', '/config/fleet/users/create-owner', {
    token: tokens.installerB,
    body: { main_email: 'customer.b@unseen.example', name: 'Customer of B' },
  });
  expect(invited.status).toBe(202);
  // create-owner answers no id (it tells nothing about accounts): read it from the database.
  const customer = await t.server.ctx.db
    .selectFrom('users')
    .select('id')
    .where('main_email', '=', 'customer.b@unseen.example')
    .executeTakeFirstOrThrow();
  switchedOff = customer.id;
  for (const [userId, roles] of [
    [IDS.installerB, ['viewer']],
    [switchedOff, ['viewer']],
  ] as const) {
    const answer = await t.call('PUT', '/config/fleet/site-access/change-roles', {
      token: tokens.admin,
      body: { siteId, userId, roles },
    });
    expect(answer.status).toBe(200);
  }
  const off = await t.call('PUT', '/config/fleet/site-access/set-access', {
    token: tokens.admin,
    body: { siteId, userId: switchedOff, access: false },
  });
  expect(off.status).toBe(200);
});
afterAll(() => t.close());

async function listedUsers(who: keyof typeof tokens) {
  const answer = await t.call('GET', `/config/fleet/sites/${siteId}`, { token: tokens[who] });
  expect(answer.status).toBe(200);
  return siteDetailsSchema.parse(answer.body).access.map((row) => [row.userId, row.access]);
}

describe('site details list only the users the caller may see', () => {
  it('shows the admin everyone, including access switched off', async () => {
    expect(await listedUsers('admin')).toEqual([
      [IDS.installerA, true],
      [IDS.owner, true],
      [IDS.installerB, true],
      [switchedOff, false],
    ]);
  });

  it("does not show the site's installer a user of another installer", async () => {
    expect(await listedUsers('installerA')).toEqual([
      [IDS.installerA, true],
      [IDS.owner, true],
    ]);
  });

  it('does not show a viewer the users whose access is switched off, even their own customer', async () => {
    expect(await listedUsers('installerB')).toEqual([[IDS.installerB, true]]);
  });

  it('shows an owner only themself', async () => {
    expect(await listedUsers('owner')).toEqual([[IDS.owner, true]]);
  });

  it("shows the site's installer a switched-off user they may see, to switch them back on", async () => {
    await t.call('PUT', '/config/fleet/site-access/set-access', {
      token: tokens.installerA,
      body: { siteId, userId: IDS.owner, access: false },
    });
    expect(await listedUsers('installerA')).toEqual([
      [IDS.installerA, true],
      [IDS.owner, false],
    ]);
  });
});
