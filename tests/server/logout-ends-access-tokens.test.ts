import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionCutoffs } from '../../server/auth/sessions.ts';
import { IDS, PASSWORDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const siteCall = (token: string) => t.call('GET', `/config/fleet/sites/${IDS.siteOfA}`, { token });
const me = (token: string) => t.call('GET', '/monitoring/me', { token, apiKey: null });

/** Sign in on both services, as the app does. */
async function signInBoth() {
  const config = await t.login('installerA');
  const monitoring = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: PASSWORDS.installerA[0], access_token: config.access_token },
  });
  expect(monitoring.status).toBe(200);
  return { config, monitoring: monitoring.body as { access_token: string; refresh_token: string } };
}

describe('after logout the old access token', () => {
  it('is refused at once by the configuration service, with the tokens refreshed from that sign-in', async () => {
    const { config } = await signInBoth();
    const refreshed = await t.call('POST', '/config/auth/v2/refresh', {
      body: { refresh_token: config.refresh_token },
    });
    const { access_token: later, refresh_token } = refreshed.body as {
      access_token: string;
      refresh_token: string;
    };
    expect((await siteCall(config.access_token)).status).toBe(200);
    expect((await siteCall(later)).status).toBe(200);
    expect((await t.call('POST', '/config/auth/v2/logout', { body: { refresh_token } })).status).toBe(204);
    for (const token of [config.access_token, later]) {
      const answer = await siteCall(token);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ code: 'session_ended' });
    }
  });

  it('is refused at once by the monitoring service, and a signed-out configuration token mints no monitoring sign-in', async () => {
    const { config, monitoring } = await signInBoth();
    expect((await me(monitoring.access_token)).status).toBe(200);
    await t.call('POST', '/monitoring/auth/v2/logout', { body: { refresh_token: monitoring.refresh_token } });
    expect((await me(monitoring.access_token)).status).toBe(401);
    await t.call('POST', '/config/auth/v2/logout', { body: { refresh_token: config.refresh_token } });
    const again = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: PASSWORDS.installerA[0], access_token: config.access_token },
    });
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'session_ended' });
  });

  it('leaves the same user’s other sign-ins working', async () => {
    const one = await signInBoth();
    const other = await signInBoth();
    await t.call('POST', '/config/auth/v2/logout', { body: { refresh_token: one.config.refresh_token } });
    await t.call('POST', '/monitoring/auth/v2/logout', {
      body: { refresh_token: one.monitoring.refresh_token },
    });
    expect((await siteCall(other.config.access_token)).status).toBe(200);
    expect((await me(other.monitoring.access_token)).status).toBe(200);
  });

  it('is refused by another server process too once its cached verdict is a second old', async () => {
    const { config } = await signInBoth();
    let now = Date.now();
    // Another process's view: its own cache over the same database.
    const elsewhere = new SessionCutoffs(t.server.ctx.db, 1000, 100, () => now);
    const [, payload = ''] = config.access_token.split('.');
    const { sub, iat, sid } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      sub: string;
      iat: number;
      sid: string;
    };
    expect(await elsewhere.isCurrent(Number(sub), iat, sid)).toBe(true);
    await t.call('POST', '/config/auth/v2/logout', { body: { refresh_token: config.refresh_token } });
    now += 1001;
    expect(await elsewhere.isCurrent(Number(sub), iat, sid)).toBe(false);
    // A revoked sign-in never comes back: the verdict is kept.
    now += 3_600_000;
    expect(await elsewhere.isCurrent(Number(sub), iat, sid)).toBe(false);
  });
});
