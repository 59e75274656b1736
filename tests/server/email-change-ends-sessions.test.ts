import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let originals: { id: number; main_email: string; password_hash: string | null }[];
beforeAll(async () => {
  t = await startTestServer();
  originals = await t.server.ctx.db
    .selectFrom('users')
    .select(['id', 'main_email', 'password_hash'])
    .where('id', 'in', [IDS.owner, IDS.installerA])
    .execute();
});
afterAll(() => t.close());
// Each test starts from the seeded accounts: e-mail changes and ended sessions must not leak.
afterEach(async () => {
  const { db } = t.server.ctx;
  for (const user of originals) {
    await db
      .updateTable('users')
      .set({ main_email: user.main_email, password_hash: user.password_hash, sessions_valid_after: null })
      .where('id', '=', user.id)
      .execute();
    t.server.ctx.sessions.forget(user.id);
  }
  await db.deleteFrom('rate_limits').execute();
});

type Pair = { access_token: string; refresh_token: string };

/** A full sign-in of the owner on both services, as the app makes it. */
async function signInBoth(): Promise<{ config: Pair; monitoring: Pair }> {
  const config = await t.login('owner');
  const answer = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: 'owner@homeowner.example', access_token: config.access_token },
  });
  expect(answer.status).toBe(200);
  return { config, monitoring: answer.body as Pair };
}

const putUser = (token: string, body: unknown, id = IDS.owner) =>
  t.call('PUT', `/config/users/${id}`, { token, body });

describe('changing a sign-in e-mail', () => {
  it('refuses an installer who sees the owner: the takeover path is closed', async () => {
    const installer = (await t.login('installerA')).access_token;
    const answer = await putUser(installer, { main_email: 'attacker@evil.example' });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'email_change_forbidden' });
    const owner = await t.call('GET', `/config/users/${IDS.owner}`, { token: installer });
    expect(owner.body).toMatchObject({ main_email: 'owner@homeowner.example' });
    // Every other field stays the installer's to change.
    const renamed = await putUser(installer, { name: 'Olivia H.', phone: '+1 512 555 0199' });
    expect(renamed.body).toMatchObject({ name: 'Olivia H.', phone: '+1 512 555 0199' });
  });

  it('asks the user for their current password, and refuses a wrong one with 403', async () => {
    const { access_token } = await t.login('owner');
    const missing = await putUser(access_token, { main_email: 'olivia@newmail.example' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'invalid_input', field: 'current_password' });
    const wrong = await putUser(access_token, {
      main_email: 'olivia@newmail.example',
      current_password: 'not-my-password',
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'current_password_wrong' });
  });

  it('ends every session on both services and mails the old address when the user changes it', async () => {
    const { config, monitoring } = await signInBoth();
    const changed = await putUser(config.access_token, {
      main_email: 'Olivia@NewMail.example',
      current_password: 'Owner#2026',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ main_email: 'olivia@newmail.example' });

    const site = await t.call('GET', `/config/fleet/sites/${IDS.siteOfOwner}`, {
      token: config.access_token,
    });
    expect(site.status).toBe(401);
    expect(site.body).toMatchObject({ code: 'session_ended' });
    const me = await t.call('GET', '/monitoring/me', { token: monitoring.access_token });
    expect(me.status).toBe(401);
    expect(me.body).toMatchObject({ code: 'session_ended' });
    const configRefresh = await t.call('POST', '/config/auth/v2/refresh', {
      body: { refresh_token: config.refresh_token },
    });
    expect(configRefresh.status).toBe(401);
    const monitoringRefresh = await t.call('POST', '/monitoring/auth/v2/refresh', {
      body: { refresh_token: monitoring.refresh_token },
    });
    expect(monitoringRefresh.status).toBe(401);
    // The old configuration token mints no monitoring sign-in either.
    const minted = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: 'owner@homeowner.example', access_token: config.access_token },
    });
    expect(minted.status).toBe(401);

    await t.server.ctx.mailer.flush();
    const notice = t.mail.sent.find((mail) => mail.to === 'owner@homeowner.example');
    expect(notice?.subject).toBe('Your Fleet Manager sign-in e-mail was changed');
    expect(notice?.text).toContain('olivia@newmail.example');

    // A new sign-in right away, with the new address, works on both services.
    const again = await t.call('POST', '/config/auth/v2/login', {
      body: { main_email: 'olivia@newmail.example', password: 'Owner#2026' },
    });
    expect(again.status).toBe(200);
    const fresh = again.body as Pair;
    expect(
      (await t.call('GET', `/config/fleet/sites/${IDS.siteOfOwner}`, { token: fresh.access_token })).status,
    ).toBe(200);
    const monitoringAgain = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: 'olivia@newmail.example', access_token: fresh.access_token },
    });
    expect(monitoringAgain.status).toBe(200);
  });

  it('lets an admin change it, which ends the sessions too, and voids a code mailed to the old address', async () => {
    const owner = await t.login('owner');
    const asked = await t.call('POST', '/config/users/password-reset', {
      body: { main_email: 'owner@homeowner.example' },
    });
    expect(asked.status).toBe(202);
    const code = await t.codeFor('owner@homeowner.example');
    const admin = (await t.login('admin')).access_token;
    const changed = await putUser(admin, { main_email: 'olivia@newmail.example' });
    expect(changed.status).toBe(200);
    expect(
      (await t.call('GET', `/config/users/${IDS.owner}`, { token: owner.access_token })).body,
    ).toMatchObject({ code: 'session_ended' });
    const reset = await t.call('PUT', '/config/users/password', {
      headers: { main_email: 'olivia@newmail.example', temp_code: code, new_password: 'Taken-over#2027' },
    });
    expect(reset.status).toBe(400);
    expect(reset.body).toMatchObject({ code: 'invalid_code' });
    await t.server.ctx.mailer.flush();
    expect(t.mail.sent.at(-1)?.text).toContain('by an administrator');
  });

  it('needs an admin to move an address into the company domain', async () => {
    const { access_token } = await t.login('installerA');
    const own = await putUser(
      access_token,
      { main_email: 'sam@fleet.example', current_password: 'Installer#2026' },
      IDS.installerA,
    );
    expect(own.status).toBe(403);
    expect(own.body).toMatchObject({ code: 'admin_only' });
    const created = await t.call('POST', '/config/fleet/users/create-owner', {
      token: access_token,
      body: { main_email: 'boss@FLEET.example', name: 'Not Staff' },
    });
    expect(created.status).toBe(403);
    const admin = (await t.login('admin')).access_token;
    const byAdmin = await putUser(admin, { main_email: 'sam@fleet.example' }, IDS.installerA);
    expect(byAdmin.status).toBe(200);
  });

  it('keeps sessions when the e-mail given is the current one', async () => {
    const { access_token } = await t.login('owner');
    const same = await putUser(access_token, { main_email: 'OWNER@homeowner.example', name: 'Olivia' });
    expect(same.status).toBe(200);
    expect((await t.call('GET', `/config/users/${IDS.owner}`, { token: access_token })).status).toBe(200);
  });
});

describe('changing a password', () => {
  it('ends every session on both services, including a monitoring sign-in minted before it', async () => {
    const { config, monitoring } = await signInBoth();
    await t.call('POST', '/config/users/password-reset', { body: { main_email: 'owner@homeowner.example' } });
    const code = await t.codeFor('owner@homeowner.example');
    const changed = await t.call('PUT', '/config/users/password', {
      headers: { main_email: 'owner@homeowner.example', temp_code: code, new_password: 'Fresh-start#2027' },
    });
    expect(changed.status).toBe(204);
    expect((await t.call('GET', '/config/users/3', { token: config.access_token })).status).toBe(401);
    expect((await t.call('GET', '/monitoring/me', { token: monitoring.access_token })).status).toBe(401);
    const minted = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: 'owner@homeowner.example', access_token: config.access_token },
    });
    expect(minted.body).toMatchObject({ code: 'session_ended' });
    const refreshed = await t.call('POST', '/monitoring/auth/v2/refresh', {
      body: { refresh_token: monitoring.refresh_token },
    });
    expect(refreshed.status).toBe(401);
    const again = await t.call('POST', '/config/auth/v2/login', {
      body: { main_email: 'owner@homeowner.example', password: 'Fresh-start#2027' },
    });
    const fresh = again.body as Pair;
    expect((await t.call('GET', '/config/users/3', { token: fresh.access_token })).status).toBe(200);
  });

  it('is seen by another process reading the same database within a second', async () => {
    const { SessionCutoffs } = await import('../../server/auth/sessions.ts');
    let clock = 0;
    const other = new SessionCutoffs(t.server.ctx.db, 1000, 10, () => clock);
    const issuedAt = Date.now() / 1000;
    expect(await other.isCurrent(IDS.owner, issuedAt)).toBe(true);
    await t.server.ctx.db
      .updateTable('users')
      .set({ sessions_valid_after: new Date(Date.now() + 1000) })
      .where('id', '=', IDS.owner)
      .execute();
    expect(await other.isCurrent(IDS.owner, issuedAt)).toBe(true);
    clock = 1000;
    expect(await other.isCurrent(IDS.owner, issuedAt)).toBe(false);
    expect(await other.isCurrent(999_999, issuedAt)).toBe(false);
  });
});
