import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '../../server/env.ts';
import { clientAddress } from '../../server/http/client-address.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ TRUST_PROXY: '1', LOGIN_LIMIT_PER_ACCOUNT: '3' });
});
afterAll(() => t.close());

async function seen(trustedProxies: number, forwarded?: string): Promise<string> {
  const app = new Hono().get('/', (c) => c.text(clientAddress(c, trustedProxies)));
  const answer = await app.request('/', { headers: forwarded ? { 'x-forwarded-for': forwarded } : {} });
  return answer.text();
}

describe('the client address behind trusted proxies', () => {
  it('takes the entry the proxies wrote, from the right, never the client-written leftmost one', async () => {
    expect(await seen(1, '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
    expect(await seen(2, '6.6.6.6, 203.0.113.9, 10.0.0.2')).toBe('203.0.113.9');
    expect(await seen(2, '203.0.113.9')).toBe('203.0.113.9');
    expect(await seen(0, '6.6.6.6')).toBe('local');
  });

  it('reads TRUST_PROXY as a number of proxies, or true and false', () => {
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseEnv({}).TRUST_PROXY).toBe(0);
    expect(() => parseEnv({ TRUST_PROXY: 'yes' })).toThrow(EnvError);
  });

  it('does not let a guesser escape the sign-in limit by writing a new X-Forwarded-For each time', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const answer = await t.call('POST', '/config/auth/v2/login', {
        body: { main_email: 'owner@homeowner.example', password: 'guess' },
        ip: `6.6.6.${i}, 203.0.113.77`,
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});
