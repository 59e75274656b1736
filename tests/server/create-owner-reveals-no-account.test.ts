import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { pinInFreshWindow } from './limit-window.ts';

let t: TestServer;
let installerA: string;
let installerB: string;
beforeAll(async () => {
  t = await startTestServer();
  installerA = (await t.login('installerA')).access_token;
  installerB = (await t.login('installerB')).access_token;
});
afterAll(() => t.close());

const createOwner = (token: string, main_email: string) =>
  t.call('POST', '/config/fleet/users/create-owner', { token, body: { main_email, name: 'Someone' } });
const sameShape = (answer: { status: number; body: unknown }, email: string) => ({
  status: answer.status,
  message: (answer.body as { message: string }).message.replace(email, 'ADDRESS'),
});

describe('create-owner', () => {
  it('answers an address with an account the caller cannot see as it answers a new one, and mails the account a notice', async () => {
    const existing = await createOwner(installerB, 'owner@homeowner.example');
    const fresh = await createOwner(installerB, 'new.person@home.example');
    expect(sameShape(existing, 'owner@homeowner.example')).toEqual(
      sameShape(fresh, 'new.person@home.example'),
    );
    expect(existing.status).toBe(202);
    const owners = await t.server.ctx.db
      .selectFrom('users')
      .select(['id', 'created_by'])
      .where('main_email', '=', 'owner@homeowner.example')
      .execute();
    expect(owners).toHaveLength(1);
    expect(owners[0]?.created_by).not.toBe(4);
    await t.server.ctx.mailer.flush();
    const notice = t.mail.sent.find((mail) => mail.to === 'owner@homeowner.example');
    expect(notice?.subject).toBe('Someone tried to add you to Fleet Manager');
    expect(notice?.code).toBeUndefined();
    expect(await t.codeFor('new.person@home.example')).toMatch(/^\d{8}$/);
  });

  it('answers 409 to a caller who sees the account already', async () => {
    const taken = await createOwner(installerA, 'owner@homeowner.example');
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'email_taken' });
  });

  it('is limited to five mails an hour to one address', async () => {
    pinInFreshWindow(t.clock);
    installerB = (await t.login('installerB')).access_token;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await createOwner(installerB, 'often@home.example')).status);
    expect(statuses.slice(0, 1)).toEqual([202]);
    expect(statuses.at(-1)).toBe(429);
  });
});
