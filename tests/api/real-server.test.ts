import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { type AppConfig, appConfigSchema } from '../../contracts/app-config.ts';
import {
  currentRole,
  currentUserName,
  isAuthenticated,
  isCompanyStaff,
  isInitialised,
  loginError,
} from '../../machines/auth/auth-selectors.ts';
import { isLoading, listVersion } from '../../machines/catalogue/catalogue-selectors.ts';
import { refreshTokenKey } from '../../machines/storage-keys.ts';
import { createAppRuntime } from '../../src/app/app-runtime.ts';
import { MemoryStorage } from '../machines/fakes.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';

// The app's HTTP layer against the real services, in process: the contract between the two.
let server: TestServer;
let config: AppConfig;
const BUNDLED = new Set(['/devices-list.json', '/devices-list-e1.json', '/convert-list.json']);

beforeAll(async () => {
  server = await startTestServer();
  const answer = await server.server.app.request('/app-config.json');
  config = v.parse(appConfigSchema, await answer.json());
});
afterAll(async () => {
  await server.close();
});

interface Traffic {
  paths: string[];
  /** The next request to each of these paths goes out with a forged (rejected) access token. */
  forge: Set<string>;
  /** Requests to these paths carry a forged token until their service's first refresh. */
  forgeAll: Set<string>;
  statuses: number[];
}

function start(storage = new MemoryStorage()) {
  const traffic: Traffic = { paths: [], forge: new Set(), forgeAll: new Set(), statuses: [] };
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url, 'http://localhost').pathname;
    traffic.paths.push(path);
    if (BUNDLED.has(path)) return new Response(await readFile(`public${path}`, 'utf8'), { status: 200 });
    const headers = new Headers(init?.headers);
    headers.set('x-forwarded-for', '203.0.113.50');
    if (path.endsWith('/auth/v2/refresh')) {
      const service = path.slice(0, path.indexOf('/auth/'));
      for (const p of traffic.forgeAll) if (p.startsWith(`${service}/`)) traffic.forgeAll.delete(p);
    }
    if (traffic.forge.delete(path) || traffic.forgeAll.has(path)) {
      headers.set('Authorization', 'Bearer forged.token.value');
    }
    const response = await server.server.app.request(url, { ...init, headers });
    traffic.statuses.push(response.status);
    return response;
  };
  const navigations: string[] = [];
  const runtime = createAppRuntime(config, {
    navigate: (to) => navigations.push(to),
    storage,
    fetch: fetchImpl,
    log: () => {},
  });
  return { runtime, storage, traffic, navigations };
}

async function signIn(runtime: ReturnType<typeof start>['runtime'], email: string, password: string) {
  runtime.auth.send({ type: 'auth.login', email, password });
  return waitFor(runtime.auth, (s) => isAuthenticated(s) || s.context.loginError !== null);
}

describe('app runtime against the real services', () => {
  it('signs the admin in to both services and reads name, role and staff from the token', async () => {
    const { runtime } = start();
    const s = await signIn(runtime, 'admin@fleet.example', 'FleetAdmin#2026');
    expect(isAuthenticated(s)).toBe(true);
    expect(currentRole(s)).toBe('admin');
    expect(currentUserName(s)).toBeTruthy();
    expect(isCompanyStaff(s, config.companyDomain)).toBe(true);
    const me = await runtime.monitoringApi<{ email?: string }>('/me');
    expect(JSON.stringify(me)).toContain('admin@fleet.example');
  });

  it("shows the server's own message for a wrong password", async () => {
    const { runtime } = start();
    const s = await signIn(runtime, 'installer@solarpros.example', 'not-the-password');
    expect(isAuthenticated(s)).toBe(false);
    expect(loginError(s)).toBeTruthy();
    expect(loginError(s)).not.toBe('Sign-in failed. Please try again.');
  });

  it('downloads the served catalogue with the configured link key', async () => {
    const { runtime } = start();
    const s = await waitFor(runtime.catalogue, (x) => !isLoading(x));
    expect(s.context.error).toBeNull();
    expect(listVersion(s)).toBe(7);
    expect(Object.keys(s.context.models ?? {}).sort()).toEqual(['BX-10', 'HX-5000']);
  });

  it('refreshes once for five parallel rejected calls on each service, and every call then succeeds', async () => {
    const { runtime, traffic } = start();
    await signIn(runtime, 'admin@fleet.example', 'FleetAdmin#2026');
    // Every first attempt goes out with a forged token, so each call meets a real 401.
    const configPaths = ['/users/1', '/users/2', '/users/3', '/users/4', '/users/role/admin'];
    for (const p of configPaths) traffic.forge.add(`/config${p}`);
    traffic.forgeAll.add('/monitoring/me');
    const calls = [
      ...configPaths.map((p) => runtime.configApi(p)),
      ...Array.from({ length: 5 }, () => runtime.monitoringApi('/me')),
    ];
    const answers = await Promise.allSettled(calls);
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill('fulfilled'));
    expect(traffic.paths.filter((p) => p === '/config/auth/v2/refresh')).toHaveLength(1);
    expect(traffic.paths.filter((p) => p === '/monitoring/auth/v2/refresh')).toHaveLength(1);
    expect(traffic.statuses.filter((x) => x === 401)).toHaveLength(10);
  });

  it('starts signed in from the refresh tokens a previous page load stored', async () => {
    const first = start();
    await signIn(first.runtime, 'installer@solarpros.example', 'Installer#2026');
    const stored = first.storage.getItem(refreshTokenKey('config'));
    first.runtime.auth.stop();
    const second = start(first.storage);
    const s = await waitFor(second.runtime.auth, isInitialised);
    expect(isAuthenticated(s)).toBe(true);
    expect(second.storage.getItem(refreshTokenKey('config'))).not.toBe(stored);
  });
});
