import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_MOUNTS, type ServiceName } from '../../contracts/services.ts';
import { needsApiKey, needsBearer } from '../../src/api/header-rules.ts';
import { type DocumentedCall, documentedCalls } from './documented-calls.ts';
import { startTestServer } from './harness.ts';

/**
 * Specification §7, word for word: "Header api-key on all calls except paths containing
 * /service-comms. A Bearer access token on all except the public paths /auth, /users,
 * /users/password and /users/password-reset." The public paths are matched exactly, except that
 * `/auth` covers the sign-in calls under it (`/auth/v2/login`, `/auth/v2/refresh`, …): they are how
 * a caller gets a token. The monitoring service takes no api-key and the same Bearer rule.
 */
const PUBLIC_PATHS = ['/auth', '/users', '/users/password', '/users/password-reset'];
const isPublic = (path: string) => PUBLIC_PATHS.includes(path) || path.startsWith('/auth/');

/**
 * Outside the specification's calls: the services' public documents, and the devices list, which
 * carries its own Basic credentials. Neither asks for an api-key or a Bearer.
 */
const OPEN: Record<ServiceName, string[]> = {
  config: ['/openapi.json', '/.well-known/jwks.json', '/devices-list'],
  monitoring: ['/openapi.json'],
};

const wantsApiKey = ({ service, path }: DocumentedCall) =>
  service === 'config' && !path.includes('/service-comms') && !OPEN[service].includes(path);
const wantsBearer = ({ service, path }: DocumentedCall) => !OPEN[service].includes(path) && !isPublic(path);

/** A documented path with its parameters filled in. */
const concrete = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'role'
      ? 'owner'
      : name === 'serial'
        ? 'HX5K-24-999999'
        : name === 'id' && path.startsWith('/install')
          ? 'HX-5000'
          : '1',
  );

const t = await startTestServer();
const calls = await documentedCalls(t);
const tokens = {} as Record<ServiceName, string>;
/** A read-only personal key of the admin: it reaches every call, and changes nothing. */
let readKey = '';
beforeAll(async () => {
  tokens.config = (await t.login('admin')).access_token;
  const created = await t.call('POST', '/config/fleet/api-keys', {
    token: tokens.config,
    body: { name: 'documented calls', scope: 'read' },
  });
  readKey = (created.body as { key: string }).key;
  const monitoring = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: 'admin@fleet.example', access_token: tokens.config },
  });
  tokens.monitoring = (monitoring.body as { access_token: string }).access_token;
});
afterAll(() => t.close());

/** The `code` of an answer sent without one of the two credentials. */
async function codeWithout(call: DocumentedCall, missing: 'api-key' | 'bearer') {
  const answer = await t.call(
    call.method.toUpperCase(),
    `${SERVICE_MOUNTS[call.service]}${concrete(call.path)}`,
    {
      body: call.method === 'get' ? undefined : {},
      ...(missing === 'api-key' ? { apiKey: null, token: tokens[call.service] } : {}),
    },
  );
  return (answer.body as { code?: string } | null)?.code;
}

describe('every call asks for the headers of specification §7', () => {
  it('covers both services', () => {
    expect(calls.filter((call) => call.service === 'config').length).toBeGreaterThan(25);
    expect(calls.filter((call) => call.service === 'monitoring').length).toBeGreaterThan(4);
  });

  it.each(calls.map((call) => [`${call.service} ${call.call}`, call] as const))(
    '%s: a Bearer exactly where the specification asks for one',
    async (_, call) => {
      expect((await codeWithout(call, 'bearer')) === 'token_missing').toBe(wantsBearer(call));
    },
  );

  it.each(calls.map((call) => [`${call.service} ${call.call}`, call] as const))(
    '%s: an api-key exactly where the specification asks for one',
    async (_, call) => {
      expect((await codeWithout(call, 'api-key')) === 'api_key_missing').toBe(wantsApiKey(call));
    },
  );

  it.each(calls.map((call) => [`${call.service} ${call.call}`, call] as const))(
    '%s: the OpenAPI document gives the same credentials',
    (_, call) => {
      const expected = [wantsApiKey(call) && 'apiKey', wantsBearer(call) && 'bearer'].filter(Boolean);
      expect(call.security).toEqual(call.path === '/devices-list' ? ['linkKey'] : expected);
    },
  );

  it.each(calls.map((call) => [`${call.service} ${call.call}`, call] as const))(
    '%s: a personal key is offered exactly where a Bearer is asked for',
    (_, call) => {
      expect(call.personalKey).toBe(wantsBearer(call));
    },
  );

  it.each(
    calls.filter((call) => call.personalKey).map((call) => [`${call.service} ${call.call}`, call] as const),
  )('%s: where it is offered, a personal key alone gets past both credentials', async (_, call) => {
    const answer = await t.call(
      call.method.toUpperCase(),
      `${SERVICE_MOUNTS[call.service]}${concrete(call.path)}`,
      { token: readKey, apiKey: null, body: call.method === 'get' ? undefined : {} },
    );
    expect(answer.status).not.toBe(401);
    expect((answer.body as { code?: string } | null)?.code).not.toBe('api_key_missing');
  });

  it.each(
    calls
      .filter((call) => !OPEN[call.service].includes(call.path))
      .map((call) => [`${call.service} ${call.call}`, call] as const),
  )("%s: the app's header rules send what the service asks for", (_, call) => {
    const path = concrete(call.path);
    expect(needsBearer(path)).toBe(wantsBearer(call));
    expect(needsApiKey(call.service, path)).toBe(wantsApiKey(call));
  });
});
