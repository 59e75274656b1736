import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, parseEnv, publicAppUrl } from '../../server/env.ts';
import { logTransport } from '../../server/mail/transports.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { pinInFreshWindow } from './limit-window.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ PUBLIC_APP_URL: 'https://fleet.example.com/app/' });
});
afterAll(() => t.close());

const OWNER = 'owner@homeowner.example';

/** The newest mail delivered to an address. */
async function newestMailTo(email: string) {
  await t.server.ctx.mailer.flush();
  const mail = t.mail.sent.filter((sent) => sent.to === email).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail;
}

describe('the access-code mail', () => {
  it('links to "Choose your password" with the e-mail and the code in the fragment, and gives the steps', async () => {
    const installer = (await t.login('installerA')).access_token;
    const created = await t.call('POST', '/config/fleet/users/create-owner', {
      token: installer,
      body: { main_email: 'new.customer+roof@example.com', name: 'New Customer' },
    });
    expect(created.status).toBe(202);
    const mail = await newestMailTo('new.customer+roof@example.com');
    const code = mail.code ?? '';
    expect(code).toMatch(/^\d{8}$/);
    const link = mail.text.split('\n').find((line) => line.startsWith('https://'));
    expect(link).toBe(
      `https://fleet.example.com/app/login?step=code#email=new.customer%2Broof%40example.com&code=${code}`,
    );
    // What reaches a server is the part before '#': no code, no e-mail.
    const requested = new URL(link ?? '');
    expect(`${requested.pathname}${requested.search}`).toBe('/app/login?step=code');
    expect(mail.text).toContain(`Your access code is ${code}.`);
    expect(mail.text).toContain('Choose "I have a code".');
    expect(mail.text).toContain('within 3 days');
    // The code in the link is the one that works.
    const chosen = await t.call('PUT', '/config/users/password', {
      headers: {
        main_email: decodeURIComponent(new URLSearchParams(requested.hash.slice(1)).get('email') ?? ''),
        temp_code: new URLSearchParams(requested.hash.slice(1)).get('code') ?? '',
        new_password: 'Roof-top#2026',
      },
    });
    expect(chosen.status).toBe(204);
  });

  it('sends the same link for a reset, with its 30 minutes', async () => {
    await t.call('POST', '/config/users/password-reset', { body: { main_email: OWNER } });
    const mail = await newestMailTo(OWNER);
    expect(mail.text).toContain(
      `https://fleet.example.com/app/login?step=code#email=owner%40homeowner.example&code=${mail.code}`,
    );
    expect(mail.text).toContain('within 30 minutes');
  });

  it('blanks the code in the link too when mail goes to the log', async () => {
    const lines: string[] = [];
    await logTransport(false, (line) => lines.push(line)).send({
      to: OWNER,
      subject: 'code',
      text: 'Your access code is 12345678.\nhttps://x.example/login?step=code#email=a&code=12345678',
      code: '12345678',
    });
    expect(lines.join('\n')).not.toContain('12345678');
  });
});

describe('PUBLIC_APP_URL', () => {
  it('defaults to this machine in development and is refused unset in production', () => {
    expect(publicAppUrl(parseEnv({ PORT: '3000' }))).toBe('http://localhost:3000');
    expect(publicAppUrl(parseEnv({ PUBLIC_APP_URL: 'https://fleet.example.com/' }))).toBe(
      'https://fleet.example.com',
    );
    expect(() => parseEnv({ PUBLIC_APP_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_APP_URL/);
    const production = {
      NODE_ENV: 'production',
      API_KEY: 'k3y-of-our-own',
      LINK_KEY: 'fleet:s3cret-link',
      FIRMWARE_PUBLIC_KEYS: generateKeyPairSync('ed25519')
        .publicKey.export({ type: 'spki', format: 'der' })
        .toString('base64'),
    };
    expect(() => parseEnv(production)).toThrow(EnvError);
    expect(() => parseEnv(production)).toThrow(/PUBLIC_APP_URL: set the address people open the app at/);
    expect(parseEnv({ ...production, PUBLIC_APP_URL: 'https://fleet.example.com' }).PUBLIC_APP_URL).toBe(
      'https://fleet.example.com',
    );
  });
});

describe('a refusal after too many failures says how long to wait', () => {
  it('names the minutes left and points to "Forgot password?" after too many failed sign-ins', async () => {
    // Ten minutes and a second into the 15-minute window: 299 s are left, said as 5 minutes.
    pinInFreshWindow(t.clock, 15 * 60);
    t.clock.advance(10 * 60_000 + 1000);
    const ip = '192.0.2.77';
    let answer = { status: 0, body: {} as unknown, headers: new Headers() };
    for (let i = 0; i < 12 && answer.status !== 429; i++) {
      answer = await t.call('POST', '/config/auth/v2/login', {
        body: { main_email: 'installer@brightvolt.example', password: `wrong-${i}` },
        ip,
      });
    }
    expect(answer.status).toBe(429);
    const body = answer.body as { message: string; retryAfter: number };
    expect(body.message).toMatch(
      /^Too many failed sign-ins; try again in 5 minutes, or choose "Forgot password\?"/,
    );
    expect(body.retryAfter).toBe(299);
    expect(answer.headers.get('retry-after')).toBe('299');
  });

  it('says so for wrong access codes too', async () => {
    pinInFreshWindow(t.clock);
    const ip = '192.0.2.78';
    let answer = { status: 0, body: {} as unknown, headers: new Headers() };
    for (let i = 0; i < 8 && answer.status !== 429; i++) {
      answer = await t.call('PUT', '/config/users/password', {
        headers: { main_email: OWNER, temp_code: `0000000${i}`, new_password: 'Whatever#2027' },
        ip,
      });
    }
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many wrong access codes; try again in (1 minute|\d+ minutes)/),
    });
  });
});
