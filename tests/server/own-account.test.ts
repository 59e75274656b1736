import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSchema } from '../../contracts/users.ts';
import { IDS, PASSWORDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('a person changes their own account', () => {
  it('changes their password with the current one: sessions end, the new one signs in, a notice is mailed', async () => {
    const [email, password] = PASSWORDS.installerB;
    const before = await t.login('installerB');
    const changed = await t.call('PUT', '/config/users/me/password', {
      token: before.access_token,
      body: { current_password: password, new_password: 'Bright-new#2027' },
    });
    expect(changed.status).toBe(204);
    // Every session ends, this one too: the app signs in again with the new password.
    const stale = await t.call('GET', `/config/users/${IDS.installerB}`, { token: before.access_token });
    expect(stale.body).toMatchObject({ code: 'session_ended' });
    const old = await t.call('POST', '/config/auth/v2/login', { body: { main_email: email, password } });
    expect(old.status).toBe(401);
    const fresh = await t.call('POST', '/config/auth/v2/login', {
      body: { main_email: email, password: 'Bright-new#2027' },
    });
    expect(fresh.status).toBe(200);
    await t.server.ctx.mailer.flush();
    expect(t.mail.sent.at(-1)).toMatchObject({
      to: email,
      subject: 'Your Fleet Manager password was changed',
    });
  });

  it('refuses a wrong current password with 403 and a short new one with 400, changing nothing', async () => {
    const { access_token } = await t.login('owner');
    const wrong = await t.call('PUT', '/config/users/me/password', {
      token: access_token,
      body: { current_password: 'Not-mine#2026', new_password: 'Whatever#2027' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'current_password_wrong' });
    const short = await t.call('PUT', '/config/users/me/password', {
      token: access_token,
      body: { current_password: PASSWORDS.owner[1], new_password: 'short' },
    });
    expect(short.body).toMatchObject({ code: 'invalid_input', field: 'new_password' });
    expect((await t.call('GET', `/config/users/${IDS.owner}`, { token: access_token })).status).toBe(200);
  });

  it('changes their own name and phone, and clears the phone with null', async () => {
    const { access_token } = await t.login('owner');
    const named = await t.call('PUT', '/config/users/me/profile', {
      token: access_token,
      body: { name: '  Olivia H. Homeowner ', phone: '+1 512 555 0199' },
    });
    expect(userSchema.parse(named.body)).toMatchObject({
      id: IDS.owner,
      name: 'Olivia H. Homeowner',
      phone: '+1 512 555 0199',
      role: 'owner',
    });
    const cleared = await t.call('PUT', '/config/users/me/profile', {
      token: access_token,
      body: { name: 'Olivia Homeowner', phone: null },
    });
    expect(cleared.body).toMatchObject({ name: 'Olivia Homeowner', phone: null });
    const bad = await t.call('PUT', '/config/users/me/profile', { token: access_token, body: { name: '' } });
    expect(bad.body).toMatchObject({ code: 'invalid_input', field: 'name' });
  });
});
