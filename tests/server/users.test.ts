import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPageSchema, userSchema } from '../../contracts/users.ts';
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

describe('users', () => {
  it('lets the admin create an installer who gets an access code by e-mail, and refuses a duplicate with 409', async () => {
    const body = {
      main_email: 'New.Installer@Sunworks.example',
      name: 'Nia Sunworks',
      phone: '+1 512 555 0101',
    };
    const created = await t.call('POST', '/config/fleet/users/create-installer', { token: admin, body });
    expect(created.status).toBe(201);
    const user = userSchema.parse(created.body);
    expect(user).toMatchObject({
      main_email: 'new.installer@sunworks.example',
      role: 'installer',
      createdBy: IDS.admin,
    });
    expect(created.body).not.toHaveProperty('password_hash');
    expect(await t.codeFor(user.main_email)).toMatch(/^\d{8}$/);
    const sent = t.mail.sent.find((mail) => mail.to === user.main_email);
    expect(sent?.text).toMatch(/access code is \d{8}/);
    const again = await t.call('POST', '/config/fleet/users/create-installer', {
      token: admin,
      body: { ...body, main_email: 'NEW.INSTALLER@sunworks.example' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'email_taken', field: 'main_email' });
  });

  it('answers 400 naming the field of a bad installer payload', async () => {
    const answer = await t.call('POST', '/config/fleet/users/create-installer', {
      token: admin,
      body: { main_email: 'x@y.example', name: 'X', phone: 'call me' },
    });
    expect(answer.body).toMatchObject({ code: 'invalid_input', field: 'phone' });
  });

  it('reads and updates a user; an installer may rename their owner but not change roles', async () => {
    const read = await t.call('GET', `/config/users/${IDS.owner}`, { token: installer });
    expect(userSchema.parse(read.body).main_email).toBe('owner@homeowner.example');
    const renamed = await t.call('PUT', `/config/users/${IDS.owner}`, {
      token: installer,
      body: { name: 'Olivia H.' },
    });
    expect(renamed.body).toMatchObject({ name: 'Olivia H.' });
    const promote = await t.call('PUT', `/config/users/${IDS.owner}`, {
      token: installer,
      body: { role: 'admin' },
    });
    expect(promote.status).toBe(403);
    const empty = await t.call('PUT', `/config/users/${IDS.owner}`, { token: installer, body: {} });
    expect(empty.status).toBe(400);
    const taken = await t.call('PUT', `/config/users/${IDS.owner}`, {
      token: admin,
      body: { main_email: 'admin@fleet.example' },
    });
    expect(taken.status).toBe(409);
  });

  it('lists users by role: the admin sees all installers, an installer only their own', async () => {
    const all = userPageSchema.parse(
      (await t.call('GET', '/config/users/role/installer', { token: admin })).body,
    );
    expect(all.items.map((user) => user.id)).toEqual(
      expect.arrayContaining([IDS.installerA, IDS.installerB]),
    );
    const own = userPageSchema.parse(
      (await t.call('GET', '/config/users/role/owner', { token: installer })).body,
    );
    expect(own.items.map((user) => user.id)).toEqual([IDS.owner]);
    const bad = await t.call('GET', '/config/users/role/superuser', { token: admin });
    expect(bad.body).toMatchObject({ field: 'role' });
  });

  it("lists a user's users paged with a total and ?q= search", async () => {
    const page = userPageSchema.parse(
      (await t.call('GET', `/config/fleet/user-list/${IDS.installerA}/0`, { token: installer })).body,
    );
    expect(page.items.map((user) => user.id)).toEqual([IDS.installerA, IDS.owner]);
    const searched = userPageSchema.parse(
      (await t.call('GET', `/config/fleet/user-list/${IDS.admin}/0?q=brightvolt`, { token: admin })).body,
    );
    expect(searched.items.map((user) => user.id)).toEqual([IDS.installerB]);
  });

  it('links a user to a second installer, who then sees that user', async () => {
    const installerB = (await t.login('installerB')).access_token;
    expect((await t.call('GET', `/config/users/${IDS.owner}`, { token: installerB })).status).toBe(403);
    const linked = await t.call('PUT', `/config/users/installer/add/${IDS.owner}/${IDS.installerB}`, {
      token: installer,
    });
    expect(linked.body).toEqual({ userId: IDS.owner, installerId: IDS.installerB });
    expect((await t.call('GET', `/config/users/${IDS.owner}`, { token: installerB })).status).toBe(200);
    const notInstaller = await t.call('PUT', `/config/users/installer/add/${IDS.owner}/${IDS.admin}`, {
      token: admin,
    });
    expect(notInstaller.body).toMatchObject({ field: 'b' });
  });

  it('lets an installer create an owner, who is theirs to attach to a site and to nobody else', async () => {
    const created = await t.call('POST', '/config/fleet/users/create-owner', {
      token: installer,
      body: { main_email: 'pat@newhome.example', name: 'Pat Newhome' },
    });
    expect(created.status).toBe(202);
    const found = userPageSchema.parse(
      (await t.call('GET', `/config/fleet/user-list/${IDS.installerA}/0?q=pat@newhome`, { token: installer }))
        .body,
    );
    const owner = userSchema.parse(found.items[0]);
    expect(owner).toMatchObject({
      role: 'owner',
      createdBy: IDS.installerA,
      main_email: 'pat@newhome.example',
    });
    expect(await t.codeFor('pat@newhome.example')).toMatch(/^\d{8}$/);
    const site = await t.call('POST', '/config/sites', {
      token: installer,
      body: {
        name: 'Newhome',
        displayAddress: '9 Elm St, Austin, TX',
        latitude: 30.1,
        longitude: -97.1,
        ownerId: owner.id,
      },
    });
    expect(site.status).toBe(201);
    const installerB = (await t.login('installerB')).access_token;
    expect((await t.call('GET', `/config/users/${owner.id}`, { token: installerB })).status).toBe(403);
    const byOwner = await t.call('POST', '/config/fleet/users/create-owner', {
      token: (await t.login('owner')).access_token,
      body: { main_email: 'x@newhome.example', name: 'X' },
    });
    expect(byOwner.status).toBe(403);
    const taken = await t.call('POST', '/config/fleet/users/create-owner', {
      token: installer,
      body: { main_email: 'PAT@newhome.example', name: 'Pat again' },
    });
    expect(taken.status).toBe(409);
  });
});
