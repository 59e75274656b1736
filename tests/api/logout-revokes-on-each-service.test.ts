import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { isAuthenticated } from '../../machines/auth/auth-selectors.ts';
import { refreshTokenKey } from '../../machines/storage-keys.ts';
import { createAppRuntime } from '../../src/app/app-runtime.ts';
import { MemoryStorage } from '../machines/fakes.ts';
import { signIn, testConfig } from './runtime-fixture.ts';
import { type Answer, startTestServer, type TestServer } from './test-server.ts';

let server: TestServer | undefined;
let stop: (() => void) | undefined;
afterEach(async () => {
  stop?.();
  await server?.close();
  server = undefined;
});

const pairOf = (service: string) => ({ access_token: `${service}-a1`, refresh_token: `${service}-r1` });

/** Both services, their logout answering as given; the runtime signed in over a real HTTP server. */
async function signedIn(logout: { config: Answer; monitoring: Answer }) {
  server = await startTestServer({
    'POST /config/auth/v2/login': () => ({ status: 200, body: pairOf('config') }),
    'POST /monitoring/auth/v2/configurator-login': () => ({ status: 200, body: pairOf('monitoring') }),
    'POST /config/auth/v2/logout': () => logout.config,
    'POST /monitoring/auth/v2/logout': () => logout.monitoring,
  });
  const storage = new MemoryStorage();
  const navigations: string[] = [];
  const runtime = createAppRuntime(testConfig(server), {
    navigate: (to) => navigations.push(to),
    storage,
    assetBaseUrl: server.url,
    log: () => {},
    // One tab: no channel to other tests' runtimes in this process.
    tabChannel: {},
  });
  stop = () => {
    runtime.auth.stop();
    runtime.catalogue.stop();
    runtime.passwordReset.stop();
  };
  const s = await signIn(runtime, 'installer@solarpros.example', 'Installer#2026');
  expect(isAuthenticated(s)).toBe(true);
  return { runtime, storage, navigations, server };
}

const logoutCalls = (s: TestServer) => s.requests.filter((r) => r.path.endsWith('/auth/v2/logout'));

describe('logout revokes the session on each service', () => {
  it('posts each refresh token to its own service, with the api-key on configuration', async () => {
    const { runtime, server: s } = await signedIn({ config: { status: 204 }, monitoring: { status: 204 } });
    runtime.auth.send({ type: 'auth.logout' });
    await waitFor(runtime.auth, () => logoutCalls(s).length === 2);
    const byPath = Object.fromEntries(logoutCalls(s).map((r) => [r.path, r]));
    expect(byPath['/config/auth/v2/logout']?.body).toEqual({ refresh_token: 'config-r1' });
    expect(byPath['/monitoring/auth/v2/logout']?.body).toEqual({ refresh_token: 'monitoring-r1' });
    expect(byPath['/config/auth/v2/logout']?.headers['api-key']).toBe('test-api-key');
    expect(byPath['/config/auth/v2/logout']?.headers.authorization).toBeUndefined();
  });

  it.each([
    [
      'a 404 from a deployment without the endpoint',
      { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } },
    ],
    ['a 500', { status: 500, body: { message: 'Database down', code: 'INTERNAL' } }],
  ])('signs out all the same after %s', async (_, answer) => {
    const {
      runtime,
      storage,
      navigations,
      server: s,
    } = await signedIn({ config: answer, monitoring: answer });
    runtime.auth.send({ type: 'auth.logout' });
    await waitFor(runtime.auth, () => logoutCalls(s).length === 2);
    const after = runtime.auth.getSnapshot();
    expect(isAuthenticated(after)).toBe(false);
    expect(after.status).toBe('active');
    expect(storage.getItem(refreshTokenKey('config'))).toBeNull();
    expect(navigations).toEqual(['/login']);
    // Signing in again works: nothing of the failed call is left behind.
    const again = await signIn(runtime, 'installer@solarpros.example', 'Installer#2026');
    expect(isAuthenticated(again)).toBe(true);
  });
});
