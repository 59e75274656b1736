import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logTransport } from '../../server/mail/transports.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ MAIL_MAX_ATTEMPTS: '3' });
});
afterAll(() => t.close());

const outbox = (to: string) =>
  t.server.ctx.db
    .selectFrom('outbox')
    .select(['status', 'attempts', 'next_attempt_at', 'last_error', 'body'])
    .where('to_address', '=', to)
    .execute();

/** Make every waiting retry due now, as if its backoff had passed. */
const makeDue = () =>
  t.server.ctx.db
    .updateTable('outbox')
    .set({ next_attempt_at: new Date(Date.now() - 1000) })
    .where('status', '=', 'pending')
    .execute();

const ask = (main_email: string) =>
  t.call('POST', '/config/users/password-reset', { body: { main_email }, ip: '10.7.0.1' });

describe('mail outbox', () => {
  it('answers a reset request the same for an existing and an unknown account while mail is down', async () => {
    t.mail.failing = true;
    const existing = await ask('installer@solarpros.example');
    const unknown = await ask('nobody@nowhere.example');
    expect(existing.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(existing.body).toEqual(unknown.body);
    await t.server.ctx.mailer.flush();
    const [row] = await outbox('installer@solarpros.example');
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: expect.stringContaining('ECONNREFUSED'),
    });
    expect(row?.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    expect(await outbox('nobody@nowhere.example')).toEqual([]);
  });

  it('retries with backoff and marks the message failed after the last attempt', async () => {
    t.mail.failing = true;
    await makeDue();
    await t.server.ctx.mailer.flush();
    const [second] = await outbox('installer@solarpros.example');
    expect(second).toMatchObject({ status: 'pending', attempts: 2 });
    await makeDue();
    await t.server.ctx.mailer.flush();
    const [third] = await outbox('installer@solarpros.example');
    expect(third).toMatchObject({ status: 'failed', attempts: 3 });
    await makeDue();
    await t.server.ctx.mailer.flush();
    expect((await outbox('installer@solarpros.example'))[0]).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('delivers once mail is back, with a code that works, and keeps no code at rest', async () => {
    t.mail.failing = false;
    expect((await ask('owner@homeowner.example')).status).toBe(202);
    const code = await t.codeFor('owner@homeowner.example');
    const rows = await outbox('owner@homeowner.example');
    expect(rows).toMatchObject([{ status: 'sent', attempts: 1 }]);
    expect(rows[0]?.body).toContain('{code}');
    const everything = await t.server.ctx.db.selectFrom('outbox').select('body').execute();
    for (const row of everything) expect(row.body).not.toContain(code);
    const changed = await t.call('PUT', '/config/users/password', {
      headers: { main_email: 'owner@homeowner.example', temp_code: code, new_password: 'Delivered#2027' },
    });
    expect(changed.status).toBe(204);
  });

  it('takes back a message whose sender stopped mid-send once its lease is over', async () => {
    const { db } = t.server.ctx;
    await db
      .insertInto('outbox')
      .values({ to_address: 'lease@x.example', subject: 'Hello', body: 'Hi' })
      .execute();
    await db
      .updateTable('outbox')
      .set({ status: 'sending', attempts: 1, next_attempt_at: new Date(Date.now() - 1000) })
      .where('to_address', '=', 'lease@x.example')
      .execute();
    await t.server.ctx.mailer.flush();
    expect(await outbox('lease@x.example')).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });
});

describe('mail to the log', () => {
  const mail = {
    to: 'a@b.example',
    subject: 'Your code',
    text: 'Your access code is 12345678.',
    code: '12345678',
  };

  it('blanks one-time codes unless the development flag is on', async () => {
    const lines: string[] = [];
    await logTransport(false, (line) => lines.push(line)).send(mail);
    expect(lines.join('\n')).not.toContain('12345678');
    expect(lines.join('\n')).toContain('Your access code is ########.');
    await logTransport(true, (line) => lines.push(line)).send(mail);
    expect(lines.at(-1)).toContain('12345678');
  });
});
