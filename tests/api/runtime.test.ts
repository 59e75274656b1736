import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { isAuthenticated, isInitialised, loginError } from '../../machines/auth/auth-selectors.ts';
import { resetStep } from '../../machines/auth/password-reset-selectors.ts';
import { catalogueError, isLoading, listVersion } from '../../machines/catalogue/catalogue-selectors.ts';
import { CACHE_KEYS, refreshTokenKey, STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { HEADER_UNSAFE_PASSWORD } from '../../src/features/auth/password-reset-actors.ts';
import { MemoryStorage } from '../machines/fakes.ts';
import { signIn, startRuntime } from './runtime-fixture.ts';
import { startTestServer, type TestServer } from './test-server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const list = (listVersion: number) => ({
  listVersion,
  devicesList: {
    'HX-5000': {
      productKey: 'hybrid5k',
      name: 'Helios HX-5000 Hybrid Inverter',
      serialPrefix: 'HX5K',
      commands: [{ name: 'Read configuration', opCode: 1 }],
      write: {
        bufferSize: 255,
        service: '7a1f0001-3c2e-4d6b-9e1a-5b0c8f4d2a61',
        characteristic: '7a1f0002-3c2e-4d6b-9e1a-5b0c8f4d2a61',
      },
    },
  },
});
const assets = {
  'GET /devices-list.json': () => ({ status: 200, body: list(7) }),
  'GET /devices-list-e1.json': () => ({ status: 200, body: list(3) }),
  'GET /convert-list.json': () => ({ status: 200, body: { hybrid5k: 'hybrid5k-to-form.json' } }),
};

describe('app runtime over a real HTTP server', () => {
  it('downloads the catalogue with Basic auth and list-version -1', async () => {
    server = await startTestServer({
      ...assets,
      'GET /config/devices-list': () => ({ status: 200, body: list(9) }),
    });
    const { runtime, storage } = startRuntime(server);
    const s = await waitFor(runtime.catalogue, (x) => !isLoading(x));
    expect(listVersion(s)).toBe(9);
    const request = server.requests.find((r) => r.path === '/config/devices-list');
    expect(server.requests.every((r) => r.headers['content-type'] === 'application/json')).toBe(true);
    expect(request?.headers.authorization).toBe(
      `Basic ${Buffer.from('fleet-link:s3cret').toString('base64')}`,
    );
    expect(request?.headers['list-version']).toBe('-1');
    expect(JSON.parse(storage.getItem(CACHE_KEYS.catalogue) ?? '{}').listVersion).toBe(9);
    expect(s.context.convertList).toEqual({ hybrid5k: 'hybrid5k-to-form.json' });
    expect(Object.keys(s.context.e1Models ?? {})).toEqual(['HX-5000']);
  });

  it('falls back to the bundled devices-list.json and reports the serialized answer on a 401', async () => {
    server = await startTestServer({
      ...assets,
      'GET /config/devices-list': () => ({
        status: 401,
        body: { message: 'Bad link key', code: 'UNAUTHORIZED' },
      }),
    });
    const { runtime, messages } = startRuntime(server);
    const s = await waitFor(runtime.catalogue, (x) => !isLoading(x));
    expect(listVersion(s)).toBe(-1);
    expect(Object.keys(s.context.models ?? {})).toEqual(['HX-5000']);
    expect(messages).toEqual([catalogueError(s)]);
    expect(catalogueError(s)).toBe(
      'ERROR getting Devices List. {"status":401,"statusText":"Unauthorized","body":{"message":"Bad link key","code":"UNAUTHORIZED"}}',
    );
  });

  it('keeps the cached list when the server answers 304 to the version it sent', async () => {
    server = await startTestServer({
      ...assets,
      'GET /config/devices-list': () => ({ status: 304 }),
    });
    const storage = new MemoryStorage();
    storage.setItem(CACHE_KEYS.catalogue, JSON.stringify(list(9)));
    const { runtime } = startRuntime(server, storage);
    const s = await waitFor(runtime.catalogue, (x) => !isLoading(x));
    expect(server.requests.find((r) => r.path === '/config/devices-list')?.headers['list-version']).toBe('9');
    expect(listVersion(s)).toBe(9);
    expect(catalogueError(s)).toBeNull();
  });

  it('treats a 304 as a failed download when no list is held', async () => {
    server = await startTestServer({
      ...assets,
      'GET /config/devices-list': () => ({ status: 304 }),
    });
    const { runtime } = startRuntime(server);
    const s = await waitFor(runtime.catalogue, (x) => !isLoading(x));
    expect(listVersion(s)).toBe(-1);
    expect(catalogueError(s)).toMatch(/^ERROR getting Devices List\. \{"status":304/);
    expect(Object.keys(s.context.models ?? {})).toEqual(['HX-5000']);
  });

  it('treats a 200 that is not a catalogue as a failed download', async () => {
    server = await startTestServer({
      ...assets,
      'GET /config/devices-list': () => ({ status: 200, body: { x: 1 } }),
    });
    const { runtime } = startRuntime(server);
    const s = await waitFor(runtime.catalogue, (x) => !isLoading(x));
    expect(listVersion(s)).toBe(-1);
    expect(catalogueError(s)).toMatch(/^ERROR getting Devices List\. \{"status":200,"invalid":/);
  });

  it("shows the server's message for a wrong password", async () => {
    server = await startTestServer({
      ...assets,
      'POST /config/auth/v2/login': () => ({
        status: 401,
        body: { message: 'E-mail or password is wrong', code: 'BAD_CREDENTIALS' },
      }),
    });
    const { runtime } = startRuntime(server);
    const s = await signIn(runtime, 'admin@fleet.example', 'nope');
    expect(loginError(s)).toBe('E-mail or password is wrong');
    expect(server.requests.find((r) => r.path === '/config/auth/v2/login')?.body).toEqual({
      main_email: 'admin@fleet.example',
      password: 'nope',
    });
  });

  it('starts signed in from stored refresh tokens', async () => {
    const tokens = (s: string) => ({ access_token: `${s}-a2`, refresh_token: `${s}-r2` });
    server = await startTestServer({
      ...assets,
      'POST /config/auth/v2/refresh': () => ({ status: 200, body: tokens('config') }),
      'POST /monitoring/auth/v2/refresh': () => ({ status: 200, body: tokens('monitoring') }),
    });
    const storage = new MemoryStorage();
    storage.setItem(refreshTokenKey('config'), 'config-r1');
    storage.setItem(refreshTokenKey('monitoring'), 'monitoring-r1');
    storage.setItem(STORAGE_KEYS.currentEmail, 'admin@fleet.example');
    const { runtime } = startRuntime(server, storage);
    const s = await waitFor(runtime.auth, isInitialised);
    expect(isAuthenticated(s)).toBe(true);
    expect(server.requests.find((r) => r.path === '/monitoring/auth/v2/refresh')?.body).toEqual({
      refresh_token: 'monitoring-r1',
    });
    expect(storage.getItem(refreshTokenKey('monitoring'))).toBe('monitoring-r2');
  });

  it('resets a password: the code request, then the PUT with the three headers and no body', async () => {
    server = await startTestServer({
      ...assets,
      'POST /config/users/password-reset': () => ({ status: 200, body: { message: 'Code sent' } }),
      'PUT /config/users/password': () => ({ status: 200, body: { message: 'Password changed' } }),
    });
    const { runtime } = startRuntime(server);
    runtime.passwordReset.send({ type: 'reset.request', email: 'owner@homeowner.example' });
    await waitFor(runtime.passwordReset, (s) => resetStep(s) === 'code' && s.matches('codeSent'));
    runtime.passwordReset.send({
      type: 'reset.submit',
      email: 'owner@homeowner.example',
      code: '482913',
      newPassword: 'New#Pass2026',
    });
    await waitFor(runtime.passwordReset, (s) => resetStep(s) === 'done');
    const put = server.requests.find((r) => r.method === 'PUT');
    expect(put?.headers).toMatchObject({
      main_email: 'owner@homeowner.example',
      temp_code: '482913',
      new_password: 'New#Pass2026',
    });
    expect(put?.headers.authorization).toBeUndefined();
    expect(put?.body).toBeUndefined();
    expect(server.requests.find((r) => r.path === '/config/users/password-reset')?.body).toEqual({
      main_email: 'owner@homeowner.example',
    });
  });
});

describe('password reset input that cannot travel in a header', () => {
  it('is refused with a clear message before anything is sent', async () => {
    server = await startTestServer({
      ...assets,
      'POST /config/users/password-reset': () => ({ status: 200, body: { message: 'Code sent' } }),
    });
    const { runtime } = startRuntime(server);
    runtime.passwordReset.send({ type: 'reset.request', email: 'owner@homeowner.example' });
    await waitFor(runtime.passwordReset, (s) => s.matches('codeSent'));
    runtime.passwordReset.send({
      type: 'reset.submit',
      email: 'owner@homeowner.example',
      code: '482913',
      newPassword: 'Pässwort#2026',
    });
    const s = await waitFor(runtime.passwordReset, (x) => x.matches('codeSent') && x.context.error !== null);
    expect(s.context.error).toBe(HEADER_UNSAFE_PASSWORD);
    expect(server.requests.some((r) => r.method === 'PUT')).toBe(false);
  });
});
