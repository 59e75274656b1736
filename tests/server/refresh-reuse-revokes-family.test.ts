import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { pinForTest } from './test-clock.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const refresh = (refresh_token: string, service = 'config') =>
  t.call('POST', `/${service}/auth/v2/refresh`, { body: { refresh_token } });

/** Move the server's clock past the grace window (30 s) of every token spent so far in the test. */
const outlastGrace = () => t.clock.advance(30_001);

describe('refresh tokens', () => {
  it('rotates on every use: the new pair works and carries fresh claims', async () => {
    const first = await t.login('installerA');
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    const pair = second.body as { access_token: string; refresh_token: string };
    expect(pair.refresh_token).not.toBe(first.refresh_token);
    const site = await t.call('GET', '/config/fleet/sites/5', { token: pair.access_token });
    expect(site.status).toBe(200);
    expect((await refresh(pair.refresh_token)).status).toBe(200);
  });

  it('revokes the whole family when a rotated token is presented again after the grace window', async () => {
    pinForTest(t.clock);
    const first = await t.login('installerA');
    const second = (await refresh(first.refresh_token)).body as { refresh_token: string };
    outlastGrace();
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ code: 'refresh_token_reused' });
    const victim = await refresh(second.refresh_token);
    expect(victim.status).toBe(401);
    expect(victim.body).toMatchObject({ code: 'invalid_refresh_token' });
  });

  it('leaves other sign-ins of the same user alone when one family is revoked', async () => {
    pinForTest(t.clock);
    const laptop = await t.login('installerA');
    const phone = await t.login('installerA');
    await refresh(phone.refresh_token);
    outlastGrace();
    await refresh(phone.refresh_token);
    expect((await refresh(laptop.refresh_token)).status).toBe(200);
  });

  it('answers ten parallel refreshes with one token with one and the same successor', async () => {
    const { refresh_token } = await t.login('owner');
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(refresh_token)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const successors = new Set(
      answers.map((answer) => (answer.body as { refresh_token: string }).refresh_token),
    );
    expect(successors.size).toBe(1);
    expect((await refresh([...successors][0] ?? '')).status).toBe(200);
  });

  it('refuses an unknown token, a missing one, and an expired one', async () => {
    expect((await refresh('made-up-token')).body).toMatchObject({ code: 'invalid_refresh_token' });
    const missing = await t.call('POST', '/config/auth/v2/refresh', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ field: 'refresh_token' });
    pinForTest(t.clock);
    const { refresh_token } = await t.login('owner');
    // A sign-in lasts REFRESH_TOKEN_TTL seconds by the server's clock: at its end it is over.
    t.clock.advance(t.server.ctx.env.REFRESH_TOKEN_TTL * 1000);
    expect((await refresh(refresh_token)).body).toMatchObject({ code: 'invalid_refresh_token' });
  });

  it('stores refresh tokens only as hashes', async () => {
    const { refresh_token } = await t.login('admin');
    const rows = await t.server.ctx.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(rows.some((row) => row.token_hash === refresh_token)).toBe(false);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);
  });
});
