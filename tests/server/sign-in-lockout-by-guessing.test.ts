import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORDS, startTestServer, type TestServer } from './harness.ts';
import { pinInFreshWindow } from './limit-window.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ LOGIN_LIMIT_PER_ACCOUNT: '3', LOGIN_CEILING_PER_ACCOUNT: '4' });
});
afterAll(() => t.close());

const attempt = (who: keyof typeof PASSWORDS, ip: string, right = false) =>
  t.call('POST', '/config/auth/v2/login', {
    body: { main_email: PASSWORDS[who][0], password: right ? PASSWORDS[who][1] : 'a-wrong-guess' },
    ip,
  });

describe('sign-in limits an attacker cannot turn against the user', () => {
  it('never counts a right password, so the user is not refused for signing in often', async () => {
    pinInFreshWindow(t.clock);
    const statuses: number[] = [];
    statuses.push((await attempt('admin', '10.6.0.1')).status);
    for (let i = 0; i < 5; i += 1) statuses.push((await attempt('admin', '10.6.0.1', true)).status);
    statuses.push((await attempt('admin', '10.6.0.1')).status);
    statuses.push((await attempt('admin', '10.6.0.1', true)).status);
    expect(statuses).toEqual([401, 200, 200, 200, 200, 200, 401, 200]);
  });

  it('past the per-account ceiling refuses the addresses that guessed, and lets the user in from their own', async () => {
    pinInFreshWindow(t.clock);
    for (let i = 1; i <= 4; i += 1) expect((await attempt('installerA', `10.8.0.${i}`)).status).toBe(401);
    const guesser = await attempt('installerA', '10.8.0.1', true);
    expect(guesser.status).toBe(429);
    expect((await attempt('installerA', '10.8.0.200', true)).status).toBe(200);
  });

  it('bounds a burst of parallel guesses from one address', async () => {
    pinInFreshWindow(t.clock);
    const answers = await Promise.all(Array.from({ length: 10 }, () => attempt('installerB', '10.9.0.1')));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });
});
