import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitRateLimit, limitKey } from '../../server/auth/rate-limit.ts';
import { REQUEST_LIMITS } from '../../server/limits/request-limits.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { pinInFreshWindow } from './limit-window.ts';

/** Limits on calls anyone can repeat, counted in the database (`rate_limits`), per user and per address. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('the command call', () => {
  it('answers 429 to a user past their commands a minute, and not to another user', async () => {
    const { access_token: admin } = await t.login('admin');
    const { access_token: installer } = await t.login('installerA');
    const command = (token: string, ip: string) =>
      t.call('POST', '/config/service-comms/command', {
        token,
        apiKey: null,
        ip,
        body: { serialNumber: 'HX5K-24-999999', data: [1] },
      });
    // Spread over addresses so that only the per-user limit can answer 429.
    const limit = REQUEST_LIMITS.commandPerUser.limit;
    pinInFreshWindow(t.clock, REQUEST_LIMITS.commandPerUser.windowSeconds);
    const answers = await Promise.all(
      Array.from({ length: limit }, (_, i) => command(admin, `192.0.2.${i % 200}`)),
    );
    expect(answers.every((answer) => answer.status === 404)).toBe(true);
    const over = await command(admin, '192.0.2.250');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'rate_limited' });
    expect((await command(installer, '192.0.2.251')).status).toBe(404);
  });
});

describe('logout', () => {
  it('answers 429 to an address past its logouts a minute, until the minute ends', async () => {
    const ip = '198.51.100.200';
    const logout = () =>
      t.call('POST', '/config/auth/v2/logout', { ip, body: { refresh_token: 'not-a-token-of-anyone' } });
    const { limit, windowSeconds } = REQUEST_LIMITS.logoutPerAddress;
    pinInFreshWindow(t.clock, windowSeconds);
    for (let i = 0; i < limit; i++) expect((await logout()).status).toBe(204);
    const over = await logout();
    expect(over.status).toBe(429);
    // Refused at the window's start: the whole window is left to wait.
    expect(over.headers.get('retry-after')).toBe(String(windowSeconds));
    t.clock.advance(windowSeconds * 1000 - 1);
    const last = await logout();
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toBe('1');
    // The window ends: the address may log out again, as many times as before.
    t.clock.advance(1);
    for (let i = 0; i < limit; i++) expect((await logout()).status).toBe(204);
    expect((await logout()).status).toBe(429);
  });

  it("answers 429 past one user's logouts a minute, from any address", async () => {
    const { refresh_token } = await t.login('owner');
    const logout = (i: number) =>
      t.call('POST', '/config/auth/v2/logout', { ip: `203.0.113.${i}`, body: { refresh_token } });
    pinInFreshWindow(t.clock, REQUEST_LIMITS.logoutPerUser.windowSeconds);
    for (let i = 0; i < REQUEST_LIMITS.logoutPerUser.limit; i++) expect((await logout(i)).status).toBe(204);
    expect((await logout(99)).status).toBe(429);
  });
});

describe('limit keys', () => {
  it('stores a key a client made long (an X-Forwarded-For entry of 5,000 characters) as its hash', async () => {
    const key = `hello:helloPerAddress:${'9'.repeat(5000)}`;
    expect(limitKey(key)).toMatch(/^sha256:[0-9a-f]{64}$/);
    await hitRateLimit(t.server.ctx, [{ key, limit: { limit: 5, windowSeconds: 60 } }]);
    const login = await t.call('POST', '/config/auth/v2/login', {
      ip: '1'.repeat(5000),
      body: { main_email: 'nobody@example.com', password: 'wrong-password' },
    });
    expect(login.status).toBe(401);
  });
});
