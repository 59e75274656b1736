import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { pinForTest } from './test-clock.ts';

let t: TestServer;
let noGrace: TestServer;
beforeAll(async () => {
  [t, noGrace] = await Promise.all([startTestServer(), startTestServer({ REFRESH_GRACE_SECONDS: '0' })]);
});
afterAll(() => Promise.all([t.close(), noGrace.close()]));

type Pair = { access_token: string; refresh_token: string };
const refresh = (server: TestServer, refresh_token: string, service = 'config') =>
  server.call('POST', `/${service}/auth/v2/refresh`, { body: { refresh_token } });

async function monitoringLogin(server: TestServer): Promise<Pair> {
  const config = await server.login('installerB');
  const answer = await server.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: 'installer@brightvolt.example', access_token: config.access_token },
  });
  expect(answer.status).toBe(200);
  return answer.body as Pair;
}

describe('refresh grace window', () => {
  it('answers the just-rotated token presented again with the same successor, which keeps working', async () => {
    const first = await t.login('installerA');
    const winner = await refresh(t, first.refresh_token);
    const sibling = await refresh(t, first.refresh_token);
    expect(winner.status).toBe(200);
    expect(sibling.status).toBe(200);
    const successor = (winner.body as Pair).refresh_token;
    expect((sibling.body as Pair).refresh_token).toBe(successor);
    const site = await t.call('GET', '/config/fleet/sites/5', { token: (sibling.body as Pair).access_token });
    expect(site.status).toBe(200);
    expect((await refresh(t, successor)).status).toBe(200);
  });

  it('does the same on the monitoring service', async () => {
    const first = await monitoringLogin(t);
    const winner = (await refresh(t, first.refresh_token, 'monitoring')).body as Pair;
    const sibling = await refresh(t, first.refresh_token, 'monitoring');
    expect(sibling.status).toBe(200);
    expect((sibling.body as Pair).refresh_token).toBe(winner.refresh_token);
    const me = await t.call('GET', '/monitoring/me', { token: (sibling.body as Pair).access_token });
    expect(me.body).toMatchObject({ email: 'installer@brightvolt.example' });
  });

  it('revokes the family when the rotated token comes back after the window', async () => {
    pinForTest(t.clock);
    const first = await t.login('installerA');
    const second = (await refresh(t, first.refresh_token)).body as Pair;
    // The window's last moment (30 s after the spend) still answers the same successor…
    t.clock.advance(30_000);
    const last = await refresh(t, first.refresh_token);
    expect(last.status).toBe(200);
    expect((last.body as Pair).refresh_token).toBe(second.refresh_token);
    // …and the next one is a replay.
    t.clock.advance(1);
    const late = await refresh(t, first.refresh_token);
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ code: 'refresh_token_reused' });
    expect((await refresh(t, second.refresh_token)).body).toMatchObject({ code: 'invalid_refresh_token' });
  });

  it('revokes the family when an older token comes back within the window', async () => {
    const first = await t.login('installerA');
    const second = (await refresh(t, first.refresh_token)).body as Pair;
    const third = (await refresh(t, second.refresh_token)).body as Pair;
    const replay = await refresh(t, first.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ code: 'refresh_token_reused' });
    expect((await refresh(t, third.refresh_token)).status).toBe(401);
  });

  it('revokes at once when the window is set to 0 seconds', async () => {
    const first = await noGrace.login('installerA');
    const second = (await refresh(noGrace, first.refresh_token)).body as Pair;
    expect((await refresh(noGrace, first.refresh_token)).body).toMatchObject({
      code: 'refresh_token_reused',
    });
    expect((await refresh(noGrace, second.refresh_token)).status).toBe(401);
  });

  it('keeps no successor that the table alone could hand out', async () => {
    const first = await t.login('owner');
    const second = (await refresh(t, first.refresh_token)).body as Pair;
    const rows = await t.server.ctx.db
      .selectFrom('refresh_tokens')
      .select('successor_sealed')
      .where('successor_sealed', 'is not', null)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.successor_sealed).not.toContain(second.refresh_token);
  });
});

describe('logout', () => {
  it('revokes the refresh family on the configuration service and answers 204', async () => {
    const pair = await t.login('installerA');
    const next = (await refresh(t, pair.refresh_token)).body as Pair;
    const out = await t.call('POST', '/config/auth/v2/logout', {
      body: { refresh_token: pair.refresh_token },
    });
    expect(out.status).toBe(204);
    expect((await refresh(t, next.refresh_token)).status).toBe(401);
    // Within the grace window too: the family is gone.
    expect((await refresh(t, pair.refresh_token)).status).toBe(401);
  });

  it('revokes the refresh family on the monitoring service and answers 204', async () => {
    const pair = await monitoringLogin(t);
    const out = await t.call('POST', '/monitoring/auth/v2/logout', {
      body: { refresh_token: pair.refresh_token },
    });
    expect(out.status).toBe(204);
    expect((await refresh(t, pair.refresh_token, 'monitoring')).status).toBe(401);
  });

  it('leaves the other sign-ins of the user alone, answers 204 for an unknown token and 400 without one', async () => {
    const laptop = await t.login('installerA');
    const phone = await t.login('installerA');
    await t.call('POST', '/config/auth/v2/logout', { body: { refresh_token: phone.refresh_token } });
    const laptopNext = await refresh(t, laptop.refresh_token);
    expect(laptopNext.status).toBe(200);
    const unknown = await t.call('POST', '/config/auth/v2/logout', { body: { refresh_token: 'made-up' } });
    expect(unknown.status).toBe(204);
    const missing = await t.call('POST', '/config/auth/v2/logout', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ field: 'refresh_token' });
    // A configuration token given to the monitoring service's logout is not one of its own.
    const { refresh_token } = laptopNext.body as Pair;
    const elsewhere = await t.call('POST', '/monitoring/auth/v2/logout', { body: { refresh_token } });
    expect(elsewhere.status).toBe(204);
    expect((await refresh(t, refresh_token)).status).toBe(200);
  });
});
