import { afterEach, describe, expect, it } from 'vitest';
import { isAuthenticated } from '../../machines/auth/auth-selectors.ts';
import { refreshTokenKey } from '../../machines/storage-keys.ts';
import { ApiError, GENERIC_REQUEST_ERROR, NETWORK_ERROR } from '../../src/api/api-error.ts';
import { signIn, startRuntime } from './runtime-fixture.ts';
import { type Answer, type RecordedRequest, startTestServer, type TestServer } from './test-server.ts';

type Routes = Parameters<typeof startTestServer>[0];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tokens = (service: string, generation: number) => ({
  access_token: `${service}-access-${generation}`,
  refresh_token: `${service}-refresh-${generation}`,
});

/** Login endpoints that hand out generation-1 tokens, and a list of what each refresh received. */
function authRoutes(refreshes: string[], onRefresh?: (service: string) => Promise<Answer | undefined>) {
  const refresh = (service: string) => async () => {
    refreshes.push(service);
    const override = await onRefresh?.(service);
    return override ?? { status: 200, body: tokens(service, 2) };
  };
  return {
    'POST /config/auth/v2/login': () => ({ status: 200, body: tokens('config', 1) }),
    'POST /monitoring/auth/v2/configurator-login': () => ({ status: 200, body: tokens('monitoring', 1) }),
    'POST /config/auth/v2/refresh': refresh('config'),
    'POST /monitoring/auth/v2/refresh': refresh('monitoring'),
  };
}

/** Answers 200 to the current (generation-2) token, 401 otherwise. */
const guarded =
  (service: string) =>
  (req: RecordedRequest): Answer =>
    req.headers.authorization === `Bearer ${service}-access-2`
      ? { status: 200, body: { ok: true, path: req.path } }
      : { status: 401, body: { message: 'Access token expired', code: 'TOKEN_EXPIRED' } };

/** A runtime signed in as the installer against a server that answers `routes` too. */
async function signedInWith(routes: Routes) {
  server = await startTestServer({ ...authRoutes([]), ...routes });
  const started = startRuntime(server);
  await signIn(started.runtime, 'installer@solarpros.example', 'Installer#2026');
  return started;
}

/** What a call that must fail was rejected with. */
const failureOf = (call: Promise<unknown>): Promise<ApiError> =>
  call.then(
    () => {
      throw new Error('the call was expected to fail');
    },
    (error: unknown) => error as ApiError,
  );

describe('API clients over a real HTTP server', () => {
  it('sends the header rules on the wire', async () => {
    server = await startTestServer({
      ...authRoutes([]),
      'GET /config/fleet/sites/7': () => ({ status: 200, body: {} }),
      'POST /config/service-comms/ping': () => ({ status: 200, body: {} }),
      'POST /config/users/password-reset': () => ({ status: 200, body: {} }),
      'GET /monitoring/devices/1': () => ({ status: 200, body: {} }),
    });
    const { runtime } = startRuntime(server);
    await signIn(runtime, 'installer@solarpros.example', 'Installer#2026');
    await runtime.configApi('/fleet/sites/7');
    await runtime.configApi('/service-comms/ping', { method: 'POST', body: {} });
    await runtime.configApi('/users/password-reset', { method: 'POST', body: { main_email: 'a@b.example' } });
    await runtime.monitoringApi('/devices/1');
    const seen = (path: string) => server?.requests.find((r) => r.path === path)?.headers ?? {};
    expect(seen('/config/fleet/sites/7')).toMatchObject({
      'content-type': 'application/json',
      'api-key': 'test-api-key',
      authorization: 'Bearer config-access-1',
    });
    expect(seen('/config/service-comms/ping')['api-key']).toBeUndefined();
    expect(seen('/config/service-comms/ping').authorization).toBe('Bearer config-access-1');
    expect(seen('/config/users/password-reset').authorization).toBeUndefined();
    expect(seen('/config/users/password-reset')['api-key']).toBe('test-api-key');
    expect(seen('/monitoring/devices/1')).toMatchObject({ authorization: 'Bearer monitoring-access-1' });
    expect(seen('/monitoring/devices/1')['api-key']).toBeUndefined();
    expect(seen('/config/auth/v2/login')['api-key']).toBe('test-api-key');
    expect(server.requests.find((r) => r.path === '/monitoring/auth/v2/configurator-login')?.body).toEqual({
      username: 'installer@solarpros.example',
      access_token: 'config-access-1',
    });
  });

  it('answers five parallel 401s per service with exactly one refresh each, then retries every call', async () => {
    const refreshes: string[] = [];
    let unauthorised = 0;
    const release: Array<() => void> = [];
    // Hold each refresh until all ten calls have had their 401, so the calls really wait together.
    const holdRefresh = () =>
      new Promise<undefined>((resolve) => {
        release.push(() => resolve(undefined));
        if (unauthorised >= 10) for (const r of release.splice(0)) r();
      });
    const counting = (service: string) => (req: RecordedRequest) => {
      const answer = guarded(service)(req);
      if (answer.status === 401 && ++unauthorised >= 10) for (const r of release.splice(0)) r();
      return answer;
    };
    server = await startTestServer({
      ...authRoutes(refreshes, holdRefresh),
      'GET /config/fleet/sites/1': counting('config'),
      'GET /monitoring/devices/1': counting('monitoring'),
    });
    const { runtime, storage } = startRuntime(server);
    await signIn(runtime, 'installer@solarpros.example', 'Installer#2026');
    const calls = Array.from({ length: 5 }, () => [
      runtime.configApi<{ ok: boolean }>('/fleet/sites/1'),
      runtime.monitoringApi<{ ok: boolean }>('/devices/1'),
    ]).flat();
    const answers = await Promise.all(calls);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(refreshes.filter((s) => s === 'config')).toHaveLength(1);
    expect(refreshes.filter((s) => s === 'monitoring')).toHaveLength(1);
    expect(server.requests.find((r) => r.path === '/config/auth/v2/refresh')?.body).toEqual({
      refresh_token: 'config-refresh-1',
    });
    expect(storage.getItem(refreshTokenKey('config'))).toBe('config-refresh-2');
  });

  it('logs out to /login (history replaced) when the refresh fails, and rejects the call', async () => {
    server = await startTestServer({
      ...authRoutes([], async () => ({
        status: 401,
        body: { message: 'Refresh token revoked', code: 'REVOKED' },
      })),
      'GET /config/fleet/sites/1': guarded('config'),
    });
    const { runtime, navigations } = startRuntime(server);
    await signIn(runtime, 'installer@solarpros.example', 'Installer#2026');
    const failure = await failureOf(runtime.configApi('/fleet/sites/1'));
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 401, message: 'Refresh token revoked' });
    expect(isAuthenticated(runtime.auth.getSnapshot())).toBe(false);
    expect(navigations).toContainEqual({ to: '/login', replace: true, resume: true });
    expect(server.requests.filter((r) => r.path === '/config/fleet/sites/1')).toHaveLength(1);
  });

  it('retries only once: a second 401 is the answer', async () => {
    const { runtime } = await signedInWith({
      'GET /config/fleet/sites/1': () => ({ status: 401, body: { message: 'Not allowed here', code: 'NO' } }),
    });
    const failure = await failureOf(runtime.configApi('/fleet/sites/1'));
    expect(failure.message).toBe('Not allowed here');
    expect(server?.requests.filter((r) => r.path === '/config/fleet/sites/1')).toHaveLength(2);
  });

  it("rethrows other errors with the server's message, or a generic one, and logs them", async () => {
    const { runtime, logged } = await signedInWith({
      'GET /config/fleet/sites/1': () => ({
        status: 403,
        body: { message: 'Not your site', code: 'FORBIDDEN' },
      }),
      'GET /config/fleet/sites/2': () => ({ status: 500, body: 'oops' }),
    });
    const forbidden = await failureOf(runtime.configApi('/fleet/sites/1'));
    expect(forbidden).toMatchObject({ status: 403, code: 'FORBIDDEN', message: 'Not your site' });
    const broken = await failureOf(runtime.configApi('/fleet/sites/2'));
    expect(broken).toMatchObject({ status: 500, message: GENERIC_REQUEST_ERROR });
    expect(logged.map((e) => e.status)).toEqual([403, 500]);
  });

  it("gives the server's message of a failed call that asked for a file or text", async () => {
    const { runtime } = await signedInWith({
      'GET /config/fleet/sites/1/commissioning-report': () => ({
        status: 503,
        body: { message: 'The database is busy; try again', code: 'unavailable' },
      }),
    });
    for (const responseType of ['blob', 'text'] as const) {
      const options = { responseType } as unknown as Parameters<typeof runtime.configApi>[1];
      const failure = await failureOf(runtime.configApi('/fleet/sites/1/commissioning-report', options));
      expect(failure).toMatchObject({
        status: 503,
        code: 'unavailable',
        message: 'The database is busy; try again',
      });
    }
  });

  it('rejects a call its caller gave up on (aborted) without logging it as a failure', async () => {
    let answer: (value: Answer) => void = () => {};
    let arrived: () => void = () => {};
    const asked = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const { runtime, logged } = await signedInWith({
      'GET /config/fleet/sites/1': () =>
        new Promise<Answer>((resolve) => {
          answer = resolve;
          arrived();
        }),
      'GET /config/fleet/sites/2': () => ({ status: 500, body: 'oops' }),
    });
    const leaving = new AbortController();
    const call = failureOf(runtime.configApi('/fleet/sites/1', { signal: leaving.signal }));
    await asked;
    leaving.abort();
    expect(await call).toBeInstanceOf(ApiError);
    answer({ status: 200, body: {} });
    // A call that really failed is still logged.
    await failureOf(runtime.configApi('/fleet/sites/2'));
    expect(logged.map((e) => e.status)).toEqual([500]);
  });

  it('says the server could not be reached when nothing answers', async () => {
    const { runtime } = await signedInWith({});
    await server?.close();
    const failure = await failureOf(runtime.configApi('/fleet/sites/1'));
    expect(failure).toMatchObject({ status: 0, message: NETWORK_ERROR });
    server = undefined;
  });
});
