import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteDetailsSchema } from '../../contracts/sites.ts';
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

const change = (token: string, path: string, body: Record<string, unknown>) =>
  t.call('PUT', `/config/fleet/site-access/${path}`, { token, body });

async function rolesOf(siteId: number, userId: number) {
  const details = siteDetailsSchema.parse(
    (await t.call('GET', `/config/fleet/sites/${siteId}`, { token: admin })).body,
  );
  return details.access.find((row) => row.userId === userId);
}

describe('an installer cannot lock themself out of a site', () => {
  it('refuses with 409 an installer unticking their own Installer role, saying who can do it', async () => {
    const answer = await change(installer, 'change-roles', {
      siteId: IDS.siteOfA,
      userId: IDS.installerA,
      roles: ['configurator'],
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'self_lockout', field: 'roles' });
    expect((answer.body as { message: string }).message).toMatch(
      /another installer of this site or an admin/i,
    );
    expect(await rolesOf(IDS.siteOfA, IDS.installerA)).toMatchObject({
      roles: ['installer', 'configurator'],
      access: true,
    });
  });

  it('refuses with 409 an installer switching off their own access', async () => {
    const answer = await change(installer, 'set-access', {
      siteId: IDS.siteOfA,
      userId: IDS.installerA,
      access: false,
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'self_lockout', field: 'access' });
    expect(await rolesOf(IDS.siteOfA, IDS.installerA)).toMatchObject({ access: true });
    expect((await t.call('GET', `/config/fleet/sites/${IDS.siteOfA}`, { token: installer })).status).toBe(
      200,
    );
  });

  it('lets an installer change their own other roles, and switch their access on again', async () => {
    const kept = await change(installer, 'change-roles', {
      siteId: IDS.siteOfA,
      userId: IDS.installerA,
      roles: ['installer'],
    });
    expect(kept.body).toMatchObject({ roles: ['installer'], access: true });
    const on = await change(installer, 'set-access', {
      siteId: IDS.siteOfA,
      userId: IDS.installerA,
      access: true,
    });
    expect(on.status).toBe(200);
    await change(installer, 'change-roles', {
      siteId: IDS.siteOfA,
      userId: IDS.installerA,
      roles: ['installer', 'configurator'],
    });
  });

  it('lets an admin take an installer off a site, and an installer switch someone else off', async () => {
    const other = await change(installer, 'set-access', {
      siteId: IDS.siteOfOwner,
      userId: IDS.owner,
      access: false,
    });
    expect(other.status).toBe(200);
    await change(installer, 'set-access', { siteId: IDS.siteOfOwner, userId: IDS.owner, access: true });
    const byAdmin = await change(admin, 'change-roles', {
      siteId: IDS.siteOfA,
      userId: IDS.installerA,
      roles: ['viewer'],
    });
    expect(byAdmin.status).toBe(200);
    expect(await rolesOf(IDS.siteOfA, IDS.installerA)).toMatchObject({ roles: ['viewer'] });
  });
});
