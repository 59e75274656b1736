import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '../../contracts/devices.ts';
import { IDS, PASSWORDS, startTestServer, type TestServer, type Who } from './harness.ts';
import { openFleet, openLive } from './live-stream.ts';

/**
 * An open live stream (`GET /monitoring/devices/{serial}/live`, and the fleet's
 * `GET /monitoring/fleet/live`) ends as soon as its reader may no longer read it: they sign out, their sign-in is revoked (a replayed refresh token), their access
 * to the site is switched off, or the device leaves the site. Before, it went on delivering until
 * the access token would have expired (15 minutes, up to 24 hours). Across processes:
 * tests/server/monitoring-two-processes.test.ts.
 */
let t: TestServer;
let serial = '';

beforeAll(async () => {
  // No grace window: a refresh token presented twice revokes its sign-in at once.
  t = await startTestServer({ REFRESH_GRACE_SECONDS: '0' });
  const admin = await t.login('admin');
  const onSite = await t.call('GET', `/config/fleet/sites/installs/${IDS.siteOfOwner}`, {
    token: admin.access_token,
  });
  serial = (onSite.body as { items: Device[] }).items[0]?.serial ?? '';
  expect(serial).not.toBe('');
});
afterAll(() => t.close());

/** Sign in on both services, as the app does; answers the monitoring token pair. */
async function monitoringSignIn(who: Who) {
  const config = await t.login(who);
  const answer = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: PASSWORDS[who][0], access_token: config.access_token },
  });
  expect(answer.status).toBe(200);
  return answer.body as { access_token: string; refresh_token: string };
}

describe('the fleet stream', () => {
  it('ends when its reader signs out of the monitoring service', async () => {
    const session = await monitoringSignIn('owner');
    const stream = await openFleet(t.origin, session.access_token);
    expect(stream.status).toBe(200);
    const out = await t.call('POST', '/monitoring/auth/v2/logout', {
      body: { refresh_token: session.refresh_token },
    });
    expect(out.status).toBe(204);
    await stream.ended;
  });
});

describe('a live stream', () => {
  it('ends when its reader signs out of the monitoring service', async () => {
    const session = await monitoringSignIn('owner');
    const stream = await openLive(t.origin, serial, session.access_token);
    expect(stream.status).toBe(200);
    const out = await t.call('POST', '/monitoring/auth/v2/logout', {
      body: { refresh_token: session.refresh_token },
    });
    expect(out.status).toBe(204);
    await stream.ended;
  });

  it("ends when its reader's sign-in is revoked for a replayed refresh token", async () => {
    const session = await monitoringSignIn('owner');
    const stream = await openLive(t.origin, serial, session.access_token);
    expect(stream.status).toBe(200);
    const refresh = (token: string) =>
      t.call('POST', '/monitoring/auth/v2/refresh', { body: { refresh_token: token } });
    expect((await refresh(session.refresh_token)).status).toBe(200);
    expect(await refresh(session.refresh_token)).toMatchObject({
      status: 401,
      body: { code: 'refresh_token_reused' },
    });
    await stream.ended;
  });

  it("ends when its reader's access to the site is switched off, and opens again when it is back", async () => {
    const session = await monitoringSignIn('owner');
    const stream = await openLive(t.origin, serial, session.access_token);
    expect(stream.status).toBe(200);
    const installer = (await t.login('installerA')).access_token;
    const setAccess = (access: boolean) =>
      t.call('PUT', '/config/fleet/site-access/set-access', {
        token: installer,
        body: { siteId: IDS.siteOfOwner, userId: IDS.owner, access },
      });
    expect((await setAccess(false)).status).toBe(200);
    await stream.ended;
    expect((await openLive(t.origin, serial, session.access_token)).status).toBe(404);
    expect((await setAccess(true)).status).toBe(200);
    const again = await openLive(t.origin, serial, session.access_token);
    expect(again.status).toBe(200);
    again.close();
  });

  it('ends when the device is taken off its site', async () => {
    const installer = (await t.login('installerA')).access_token;
    const put = await t.call('POST', `/config/fleet/sites/${IDS.siteOfOwner}/installs`, {
      token: installer,
      body: { serial: 'HX5K-26-000640', modelId: 'HX-5000' },
    });
    const { id } = put.body as Device;
    const session = await monitoringSignIn('owner');
    const stream = await openLive(t.origin, 'HX5K-26-000640', session.access_token);
    expect(stream.status).toBe(200);
    expect((await t.call('DELETE', `/config/fleet/installs/${id}`, { token: installer })).status).toBe(204);
    await stream.ended;
  });
});
