import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../../contracts/app-config.ts';

/** Runtime configuration the app under test starts with. */
export const testConfig: AppConfig = {
  configUrl: '/config',
  monitoringUrl: '/monitoring',
  devicesListUrl: '/config/devices-list',
  apiKey: 'test-api-key',
  linkKey: 'fleet:link-key',
  companyDomain: 'fleet.example',
  mapsApiKey: null,
};

interface FakeUser {
  password: string;
  name: string;
  role: 'admin' | 'installer' | 'owner';
}

/** The demo sign-ins of the real server, with the same passwords. */
export const USERS: Record<string, FakeUser> = {
  'admin@fleet.example': { password: 'FleetAdmin#2026', name: 'Ada Admin', role: 'admin' },
  'installer@solarpros.example': { password: 'Installer#2026', name: 'Ian Installer', role: 'installer' },
};

/** The code the fake mail "sends" for a password reset. */
export const RESET_CODE = '482913';
export const WRONG_CREDENTIALS = 'E-mail or password is wrong.';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (email: string, user: FakeUser) =>
  `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: email, email, name: user.name, role: user.role })}.c2ln`;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

// Under jsdom `import.meta.url` is not a file URL; the tests run from the repository root.
const publicFile = (name: string) => readFileSync(join(process.cwd(), 'public', name), 'utf8');

/**
 * An in-memory stand-in for both services, answering through the `fetch` the runtime is given.
 * It keeps the real server's paths, bodies and error shape `{message, code}`.
 */
export function createFakeServices(options: { devicesListDown?: boolean } = {}) {
  const refreshTokens = new Map<string, string>();
  const calls: string[] = [];
  let issued = 0;
  const tokensFor = (email: string) => {
    const user = USERS[email];
    if (!user) throw new Error(`no fake user ${email}`);
    issued += 1;
    const refresh = `refresh-${issued}`;
    refreshTokens.set(refresh, email);
    return { access_token: jwt(email, user), refresh_token: refresh };
  };
  const handle = async (method: string, path: string, headers: Headers, body: unknown): Promise<Response> => {
    const data = (body ?? {}) as Record<string, string>;
    if (method === 'POST' && path === '/config/auth/v2/login') {
      const user = USERS[data.main_email ?? ''];
      if (!user || user.password !== data.password)
        return json(401, { message: WRONG_CREDENTIALS, code: 'bad_login' });
      return json(200, tokensFor(data.main_email ?? ''));
    }
    if (method === 'POST' && path === '/monitoring/auth/v2/configurator-login') {
      return json(200, tokensFor(data.username ?? ''));
    }
    if (method === 'POST' && (path === '/config/auth/v2/refresh' || path === '/monitoring/auth/v2/refresh')) {
      const email = refreshTokens.get(data.refresh_token ?? '');
      if (!email) return json(401, { message: 'Refresh token is not valid.', code: 'bad_refresh' });
      refreshTokens.delete(data.refresh_token ?? '');
      return json(200, tokensFor(email));
    }
    if (method === 'GET' && path === '/config/devices-list') {
      if (options.devicesListDown)
        return json(503, { message: 'Devices list unavailable.', code: 'unavailable' });
      return json(200, JSON.parse(publicFile('devices-list.json')));
    }
    if (method === 'GET' && /^\/[a-z0-9-]+\.json$/.test(path))
      return json(200, JSON.parse(publicFile(path.slice(1))));
    if (method === 'POST' && path === '/config/users/password-reset')
      return json(200, { message: 'Code sent.' });
    if (method === 'PUT' && path === '/config/users/password') {
      if (headers.get('temp_code') !== RESET_CODE) {
        return json(400, { message: 'The access code is wrong or has expired.', code: 'bad_code' });
      }
      return json(200, { message: 'Password changed.' });
    }
    return json(404, { message: `No route ${method} ${path}`, code: 'not_found' });
  };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request =
      input instanceof Request ? input : new Request(new URL(String(input), 'http://app.test'), init);
    const path = new URL(request.url, 'http://app.test').pathname;
    const method = (init?.method ?? request.method).toUpperCase();
    calls.push(`${method} ${path}`);
    const text = typeof init?.body === 'string' ? init.body : await request.clone().text();
    return handle(
      method,
      path,
      new Headers(init?.headers ?? request.headers),
      text ? JSON.parse(text) : undefined,
    );
  };
  return { fetch, calls, refreshTokens };
}
