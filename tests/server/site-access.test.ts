import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let installer: string;
let owner: string;
beforeAll(async () => {
  t = await startTestServer();
  installer = (await t.login('installerA')).access_token;
  owner = (await t.login('owner')).access_token;
});
afterAll(() => t.close());

describe('site access', () => {
  it('switches an owner off a site at once, keeping the roles, and back on', async () => {
    const site = IDS.siteOfOwner;
    expect((await t.call('GET', `/config/fleet/sites/${site}`, { token: owner })).status).toBe(200);
    const off = await t.call('PUT', '/config/fleet/site-access/set-access', {
      token: installer,
      body: { siteId: site, userId: IDS.owner, access: false },
    });
    expect(off.body).toEqual({ siteId: site, userId: IDS.owner, roles: ['owner'], access: false });
    expect((await t.call('GET', `/config/fleet/sites/${site}`, { token: owner })).status).toBe(403);
    await t.call('PUT', '/config/fleet/site-access/set-access', {
      token: installer,
      body: { siteId: site, userId: IDS.owner, access: true },
    });
    expect((await t.call('GET', `/config/fleet/sites/${site}`, { token: owner })).status).toBe(200);
  });

  it('gives an owner a site with change-roles; the new role shows in the site details', async () => {
    const site = IDS.siteOfA;
    // Not theirs to know of until they are given it.
    expect((await t.call('GET', `/config/fleet/sites/${site}`, { token: owner })).status).toBe(404);
    const changed = await t.call('PUT', '/config/fleet/site-access/change-roles', {
      token: installer,
      body: { siteId: site, userId: IDS.owner, roles: ['viewer', 'viewer'] },
    });
    expect(changed.body).toEqual({ siteId: site, userId: IDS.owner, roles: ['viewer'], access: true });
    const details = await t.call('GET', `/config/fleet/sites/${site}`, { token: owner });
    expect(details.status).toBe(200);
  });

  it('answers 400 naming the field for an unknown role, and 403 for an owner changing roles', async () => {
    const bad = await t.call('PUT', '/config/fleet/site-access/change-roles', {
      token: installer,
      body: { siteId: IDS.siteOfA, userId: IDS.owner, roles: ['superuser'] },
    });
    expect(bad.body).toMatchObject({ code: 'invalid_input', field: 'roles.0' });
    const byOwner = await t.call('PUT', '/config/fleet/site-access/change-roles', {
      token: owner,
      body: { siteId: IDS.siteOfOwner, userId: IDS.owner, roles: ['installer'] },
    });
    expect(byOwner.status).toBe(403);
  });

  it('drops access to the devices of a site with the site', async () => {
    const site = IDS.siteOfOwner;
    expect((await t.call('GET', `/config/fleet/sites/installs/${site}`, { token: owner })).status).toBe(200);
    await t.call('PUT', '/config/fleet/site-access/set-access', {
      token: installer,
      body: { siteId: site, userId: IDS.owner, access: false },
    });
    expect((await t.call('GET', `/config/fleet/sites/installs/${site}`, { token: owner })).status).toBe(403);
  });
});
