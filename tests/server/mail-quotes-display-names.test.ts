import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotedName } from '../../server/mail/quoted-name.ts';
import { IDS, PASSWORDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('a display name in mail', () => {
  it.each([
    ['Sam Solarpros', '“Sam Solarpros”'],
    ['Eve\nYour account is locked.\nClick https://evil.example/login', '“Eve Your account is locked. Click”'],
    ['Eve\r\nBcc: x@evil.example', '“Eve Bcc:”'],
    ['Visit www.evil.example or evil.example/reset', '“Visit or”'],
    ['Mail me: eve@evil.example', '“Mail me:”'],
    ['javascript:alert(1) Eve', '“Eve”'],
    ['Eve "the installer"', "“Eve 'the installer'”"],
    ['Eve\u202eredaolnwod', '“Eve redaolnwod”'],
    ['https://evil.example', 'A Fleet Manager user'],
    ['J. R. Smith', '“J. R. Smith”'],
    ['A'.repeat(120), `“${'A'.repeat(59)}…”`],
  ])('quotes %j as %s', (name, quoted) => {
    expect(quotedName(name)).toBe(quoted);
  });

  it("reaches another account's mailbox quoted, on one line, with no link (create-owner of an existing address)", async () => {
    const { access_token } = await t.login('installerA');
    const renamed = await t.call('PUT', `/config/users/${IDS.installerA}`, {
      token: access_token,
      body: { name: 'Sam\nYour password expired: https://evil.example/reset' },
    });
    expect(renamed.status).toBe(200);
    // A new token carries the new name.
    const { access_token: token } = await t.login('installerA');
    const target = PASSWORDS.installerB[0];
    const answer = await t.call('POST', '/config/fleet/users/create-owner', {
      token,
      body: { main_email: target, name: 'Anyone' },
    });
    expect(answer.status).toBe(202);
    await t.server.ctx.mailer.flush();
    const mail = t.mail.sent.filter((sent) => sent.to === target).at(-1);
    expect(mail?.text.split('\n')[0]).toBe(
      '“Sam Your password expired:” tried to create a Fleet Manager account for this address, which already has one.',
    );
    expect(mail?.text).not.toMatch(/https?:|evil\.example/);
  });
});
