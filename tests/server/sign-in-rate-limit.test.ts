import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneExpired } from '../../server/auth/rate-limit.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { pinInFreshWindow } from './limit-window.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ LOGIN_LIMIT_PER_ACCOUNT: '3', LOGIN_LIMIT_PER_ADDRESS: '5' });
});
afterAll(() => t.close());

const attempt = (main_email: string, ip: string, password = 'wrong-password') =>
  t.call('POST', '/config/auth/v2/login', { body: { main_email, password }, ip });

describe('sign-in rate limits', () => {
  it('answers 429 to the address that failed on an account, even with the right password, and lets the owner in from elsewhere', async () => {
    pinInFreshWindow(t.clock);
    for (let i = 0; i < 3; i += 1)
      expect((await attempt('owner@homeowner.example', '10.0.0.1')).status).toBe(401);
    const blocked = await attempt('owner@homeowner.example', '10.0.0.1', 'Owner#2026');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'rate_limited' });
    expect((await attempt('owner@homeowner.example', '10.0.0.99', 'Owner#2026')).status).toBe(200);
  });

  it('answers 429 to an address that tries many accounts', async () => {
    pinInFreshWindow(t.clock);
    const accounts = ['a', 'b', 'c', 'd', 'e'].map((name) => `${name}@spray.example`);
    for (const email of accounts) expect((await attempt(email, '10.9.9.9')).status).toBe(401);
    expect((await attempt('f@spray.example', '10.9.9.9')).status).toBe(429);
    expect((await attempt('f@spray.example', '10.9.9.10')).status).toBe(401);
  });

  it('counts failures of the monitoring service older sign-in against the configuration sign-in, in the database', async () => {
    pinInFreshWindow(t.clock);
    const password = Buffer.from('FleetAdmin#2026').toString('base64');
    for (let i = 0; i < 3; i += 1) {
      await t.call('POST', '/monitoring/auth/fleet-login', {
        body: { username: 'admin@fleet.example', password: 'eA==' },
        ip: '10.1.0.1',
      });
    }
    const blocked = await t.call('POST', '/config/auth/v2/login', {
      body: { main_email: 'admin@fleet.example', password: 'FleetAdmin#2026' },
      ip: '10.1.0.1',
    });
    expect(blocked.status).toBe(429);
    const elsewhere = await t.call('POST', '/monitoring/auth/fleet-login', {
      body: { username: 'admin@fleet.example', password },
      ip: '10.1.0.50',
    });
    expect(elsewhere.status).toBe(200);
    const rows = await t.server.ctx.db.selectFrom('rate_limits').select('key').execute();
    expect(rows.map((row) => row.key)).toContain('login:account:admin@fleet.example');
  });

  it('forgets windows older than a day when pruned, and keeps current ones', async () => {
    const { db } = t.server.ctx;
    await db
      .insertInto('rate_limits')
      .values({
        key: 'login:account:old@x.example',
        window_start: new Date(Date.now() - 2 * 86_400_000),
        hits: 99,
      })
      .execute();
    await pruneExpired(t.server.ctx);
    const keys = (await db.selectFrom('rate_limits').select('key').execute()).map((row) => row.key);
    expect(keys).not.toContain('login:account:old@x.example');
    expect(keys).toContain('login:account:admin@fleet.example');
  });
});
