import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../server/auth/signing-keys.ts';
import { createServer, type FleetServer } from '../../server/create-server.ts';
import { EnvError, parseEnv } from '../../server/env.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { migratedStart } from './migrated-database.ts';

const dist = '.tmp/test-dist';
let t: TestServer;
beforeAll(async () => {
  mkdirSync(dist, { recursive: true });
  writeFileSync(`${dist}/index.html`, '<!doctype html><title>Fleet Manager</title>');
  writeFileSync(`${dist}/app.js`, 'console.log(1)');
  t = await startTestServer({ APP_ORIGINS: 'https://app.fleet.example', MAPS_API_KEY: 'maps-key' });
});
afterAll(() => t.close());

function runMain(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/main.ts', ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, _out, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
    );
  });
}

describe('deployment', () => {
  it('answers /app-config.json from the environment', async () => {
    const { body } = await t.call('GET', '/app-config.json', { apiKey: null });
    expect(body).toEqual({
      configUrl: '/config',
      monitoringUrl: '/monitoring',
      devicesListUrl: '/config/devices-list',
      apiKey: 'dev-api-key',
      linkKey: 'fleet:dev-link-key',
      companyDomain: 'fleet.example',
      mapsApiKey: 'maps-key',
    });
  });

  it('serves built files, falls back to index.html for client routes, and answers JSON 404 inside services', async () => {
    const server = await createServer({
      env: parseEnv({ DATA_DIR: '.tmp/test-data' }),
      database: { pgliteDir: 'memory://', from: migratedStart() },
      keys: { config: (await generateSigningKey()).key, monitoring: (await generateSigningKey()).key },
      seed: false,
      distDir: dist,
    });
    try {
      expect(await (await server.app.request('/app.js')).text()).toBe('console.log(1)');
      const route = await server.app.request('/sites-list');
      expect(await route.text()).toContain('<title>Fleet Manager</title>');
      const unknown = await server.app.request('/config/auth/no-such-call', {
        headers: { 'api-key': 'dev-api-key' },
      });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ code: 'not_found' });
      const guarded = await server.app.request('/config/fleet/unknown', {
        headers: { 'api-key': 'dev-api-key' },
      });
      expect(await guarded.json()).toMatchObject({ code: 'token_missing' });
    } finally {
      await server.close();
    }
  });

  it('answers CORS preflights for a configured app origin only', async () => {
    const preflight = (origin: string) =>
      t.server.app.request('/config/auth/v2/login', {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'api-key',
        },
      });
    expect((await preflight('https://app.fleet.example')).headers.get('access-control-allow-origin')).toBe(
      'https://app.fleet.example',
    );
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets a monitoring service running alone check configuration tokens through JWKS over HTTP', async () => {
    const listener = serve({ fetch: t.server.app.fetch, port: 0 });
    await new Promise((resolve) => listener.once('listening', resolve));
    const address = listener.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    let monitoring: FleetServer | undefined;
    try {
      monitoring = await createServer({
        env: parseEnv({ DATA_DIR: '.tmp/test-data', CONFIG_SERVICE_URL: `http://127.0.0.1:${port}/config` }),
        database: { pgliteDir: 'memory://', from: migratedStart() },
        services: 'monitoring',
        keys: { config: (await generateSigningKey()).key, monitoring: (await generateSigningKey()).key },
        scryptCost: { N: 1024, r: 8, p: 1 },
      });
      const { access_token } = await t.login('owner');
      const login = await monitoring.app.request('/monitoring/auth/v2/configurator-login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'owner@homeowner.example', access_token }),
      });
      expect(login.status).toBe(200);
      expect((await monitoring.app.request('/config/auth/v2/login', { method: 'POST' })).status).toBe(404);
    } finally {
      await monitoring?.close();
      listener.close();
    }
  });

  it('names every bad environment variable', () => {
    expect(() => parseEnv({ PORT: 'eighty', ACCESS_TOKEN_TTL: '5', LINK_KEY: 'nocolon' })).toThrow(EnvError);
    try {
      parseEnv({ PORT: 'eighty', ACCESS_TOKEN_TTL: '5', LINK_KEY: 'nocolon' });
    } catch (error) {
      expect(String(error)).toMatch(
        /PORT:.*\n.*LINK_KEY: LINK_KEY must be user:password\n.*ACCESS_TOKEN_TTL/s,
      );
    }
  });

  it('refuses to run one service alone without DATABASE_URL, and a bad PORT, with exit code 1', async () => {
    const alone = await runMain(['--service', 'config'], { DATABASE_URL: '' });
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('DATABASE_URL is required with --service config');
    const badPort = await runMain([], { PORT: '70000' });
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toContain('PORT:');
  });
});
