import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_TTL_SECONDS } from '../../server/auth/one-time-codes.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { pinInFreshWindow } from './limit-window.ts';
import { pinForTest } from './test-clock.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const latestCode = (email: string) => t.codeFor(email);

const change = (main_email: string, temp_code: string, new_password: string, ip?: string) =>
  t.call('PUT', '/config/users/password', { headers: { main_email, temp_code, new_password }, ip });

describe('password reset', () => {
  it('mails a code, which sets a new password once; old refresh tokens stop working', async () => {
    const email = 'owner@homeowner.example';
    const before = await t.login('owner');
    const asked = await t.call('POST', '/config/users/password-reset', { body: { main_email: email } });
    expect(asked.status).toBe(202);
    const code = await latestCode(email);
    expect((await change(email, code, 'Brand-new#2027')).status).toBe(204);
    const login = await t.call('POST', '/config/auth/v2/login', {
      body: { main_email: email, password: 'Brand-new#2027' },
    });
    expect(login.status).toBe(200);
    const reused = await change(email, code, 'Another#2028');
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ code: 'invalid_code', field: 'temp_code' });
    const stale = await t.call('POST', '/config/auth/v2/refresh', {
      body: { refresh_token: before.refresh_token },
    });
    expect(stale.status).toBe(401);
  });

  it('answers the same 202 for an unknown account and mails nothing', async () => {
    const answer = await t.call('POST', '/config/users/password-reset', {
      body: { main_email: 'nobody@nowhere.example' },
    });
    expect(answer.status).toBe(202);
    const mail = await t.server.ctx.db
      .selectFrom('outbox')
      .select('id')
      .where('to_address', '=', 'nobody@nowhere.example')
      .execute();
    expect(mail).toHaveLength(0);
  });

  it('refuses a wrong code, an expired code, and bad headers', async () => {
    pinForTest(t.clock);
    const email = 'installer@brightvolt.example';
    await t.call('POST', '/config/users/password-reset', { body: { main_email: email } });
    const code = await latestCode(email);
    const wrong = code === '00000000' ? '11111111' : '00000000';
    expect((await change(email, wrong, 'Whatever#2027')).status).toBe(400);
    // A reset code lasts 30 minutes by the server's clock: at their end it is refused.
    t.clock.advance(CODE_TTL_SECONDS.reset * 1000);
    expect((await change(email, code, 'Whatever#2027')).body).toMatchObject({ code: 'invalid_code' });
    const short = await change(email, code, 'short');
    expect(short.body).toMatchObject({ code: 'invalid_input', field: 'new_password' });
  });

  it('refuses an address after five wrong codes for one account, while the right code from elsewhere still works', async () => {
    pinInFreshWindow(t.clock);
    const email = 'installer@brightvolt.example';
    await t.call('POST', '/config/users/password-reset', { body: { main_email: email }, ip: '10.2.1.1' });
    const code = await latestCode(email);
    const wrong = (i: number) => (code.endsWith(String(i)) ? `1234567${(i + 1) % 10}` : `1234567${i}`);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await change(email, wrong(i), 'Whatever#2027', '10.2.0.1')).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await change(email, code, 'Whatever#2027', '10.2.0.1')).status).toBe(429);
    expect((await change(email, code, 'Whatever#2027', '10.2.0.2')).status).toBe(204);
  });

  it('rate limits reset requests per account', async () => {
    pinInFreshWindow(t.clock);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push(
        (await t.call('POST', '/config/users/password-reset', { body: { main_email: 'x@limit.example' } }))
          .status,
      );
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
  });
});

describe('installer access codes', () => {
  it("lets an installer send an access code to their owner, which sets the owner's password", async () => {
    const installer = (await t.login('installerA')).access_token;
    const sent = await t.call('POST', '/config/fleet/users/access-code', {
      token: installer,
      body: { main_email: 'owner@homeowner.example' },
    });
    expect(sent.status).toBe(202);
    const code = await latestCode('owner@homeowner.example');
    expect((await change('owner@homeowner.example', code, 'Access-code#2027', '10.3.0.1')).status).toBe(204);
  });

  it('answers the same for a user the installer does not manage and for no user, and mails neither', async () => {
    const installer = (await t.login('installerA')).access_token;
    await t.server.ctx.mailer.flush();
    const before = t.mail.sent.length;
    const foreign = await t.call('POST', '/config/fleet/users/access-code', {
      token: installer,
      body: { main_email: 'installer@brightvolt.example' },
    });
    const missing = await t.call('POST', '/config/fleet/users/access-code', {
      token: installer,
      body: { main_email: 'no@one.example' },
    });
    expect(foreign.status).toBe(202);
    expect(missing.status).toBe(202);
    expect((foreign.body as { message: string }).message.replace('installer@brightvolt.example', 'X')).toBe(
      (missing.body as { message: string }).message.replace('no@one.example', 'X'),
    );
    await t.server.ctx.mailer.flush();
    const to = t.mail.sent.slice(before).map((mail) => mail.to);
    expect(to).not.toContain('installer@brightvolt.example');
    expect(to).not.toContain('no@one.example');
    // The owner chose this password with an access code in the test before.
    const ownerLogin = await t.call('POST', '/config/auth/v2/login', {
      body: { main_email: 'owner@homeowner.example', password: 'Access-code#2027' },
    });
    const byOwner = await t.call('POST', '/config/fleet/users/access-code', {
      token: (ownerLogin.body as { access_token: string }).access_token,
      body: { main_email: 'owner@homeowner.example' },
    });
    expect(byOwner.status).toBe(403);
  });

  it('limits access codes to five an hour for one user', async () => {
    pinInFreshWindow(t.clock);
    const admin = (await t.login('admin')).access_token;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const answer = await t.call('POST', '/config/fleet/users/access-code', {
        token: admin,
        body: { main_email: 'installer@solarpros.example' },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});
