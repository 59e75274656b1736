import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function latestCode(email: string): Promise<string> {
  const rows = await t.server.ctx.db
    .selectFrom('outbox')
    .select('body')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .limit(1)
    .execute();
  const code = /code is (\d{8})/.exec(rows[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

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
    const email = 'installer@brightvolt.example';
    await t.call('POST', '/config/users/password-reset', { body: { main_email: email } });
    const code = await latestCode(email);
    const wrong = code === '00000000' ? '11111111' : '00000000';
    expect((await change(email, wrong, 'Whatever#2027')).status).toBe(400);
    await t.server.ctx.db
      .updateTable('one_time_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect((await change(email, code, 'Whatever#2027')).body).toMatchObject({ code: 'invalid_code' });
    const short = await change(email, code, 'short');
    expect(short.body).toMatchObject({ code: 'invalid_input', field: 'new_password' });
  });

  it('rate limits code attempts per account', async () => {
    const email = 'admin@fleet.example';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await change(email, `1234567${i}`, 'Whatever#2027', `10.2.0.${i}`)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('rate limits reset requests per account', async () => {
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

  it('refuses an access code for a user the installer does not manage, and from an owner', async () => {
    const installer = (await t.login('installerA')).access_token;
    const foreign = await t.call('POST', '/config/fleet/users/access-code', {
      token: installer,
      body: { main_email: 'installer@brightvolt.example' },
    });
    expect(foreign.status).toBe(403);
    const missing = await t.call('POST', '/config/fleet/users/access-code', {
      token: installer,
      body: { main_email: 'no@one.example' },
    });
    expect(missing.status).toBe(404);
  });

  it('limits access codes to five an hour for one user', async () => {
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
