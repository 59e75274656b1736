import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const creds = { main_email: 'installer@solarpros.example', password: 'Installer#2026' };

describe('configuration sign-in', () => {
  it('answers an access and a refresh token for the right password', async () => {
    const { status, body } = await t.call('POST', '/config/auth/v2/login', { body: creds });
    expect(status).toBe(200);
    expect(body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String) });
    const claims = JSON.parse(
      Buffer.from(
        String((body as { access_token: string }).access_token.split('.')[1]),
        'base64url',
      ).toString(),
    );
    expect(claims).toMatchObject({
      sub: '2',
      email: creds.main_email,
      name: 'Sam Solarpros',
      role: 'installer',
    });
    // iat carries milliseconds, exp is whole seconds.
    expect(claims.exp - claims.iat).toBeGreaterThan(899);
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(900);
  });

  it('accepts the e-mail in any case and answers the same pair on the older POST /auth', async () => {
    const { status, body } = await t.call('POST', '/config/auth', {
      body: { ...creds, main_email: 'Installer@SolarPros.example' },
    });
    expect(status).toBe(200);
    expect(body).toHaveProperty('refresh_token');
  });

  it('answers 401 invalid_credentials for a wrong password and for an unknown account alike', async () => {
    const wrong = await t.call('POST', '/config/auth/v2/login', { body: { ...creds, password: 'nope' } });
    const unknown = await t.call('POST', '/config/auth/v2/login', {
      body: { main_email: 'ghost@x.example', password: 'nope' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'E-mail or password is wrong', code: 'invalid_credentials' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers 400 naming the field for a bad body, and for a body that is not JSON', async () => {
    const bad = await t.call('POST', '/config/auth/v2/login', {
      body: { main_email: 'not-an-email', password: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_input', field: 'main_email' });
    const notJson = await t.call('POST', '/config/auth/v2/login', { body: '{"main_email":' });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ code: 'invalid_json' });
  });

  it('requires the api-key header and refuses a wrong one', async () => {
    const missing = await t.call('POST', '/config/auth/v2/login', { body: creds, apiKey: null });
    const wrong = await t.call('POST', '/config/auth/v2/login', { body: creds, apiKey: 'wrong-key-123' });
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(missing.body).toMatchObject({ code: 'api_key_missing' });
    expect(wrong.body).toMatchObject({ code: 'api_key_invalid' });
  });

  it('requires a Bearer token on non-public calls and refuses a forged one', async () => {
    const none = await t.call('GET', '/config/fleet/sites/2');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'token_missing' });
    const { access_token } = await t.login('installerA');
    const forged = `${access_token.slice(0, -4)}AAAA`;
    const refused = await t.call('GET', '/config/fleet/sites/2', { token: forged });
    expect(refused.body).toMatchObject({ code: 'token_invalid' });
  });

  it('publishes the public signing key as JWKS without api-key or token', async () => {
    const { status, body } = await t.call('GET', '/config/.well-known/jwks.json', { apiKey: null });
    expect(status).toBe(200);
    const keys = (body as { keys: Record<string, string>[] }).keys;
    expect(keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    expect(keys[0]).not.toHaveProperty('d');
  });
});

describe('monitoring sign-in', () => {
  it('signs in with the configuration access token and refreshes its own pair', async () => {
    const config = await t.login('owner');
    const login = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      apiKey: null,
      body: { username: 'owner@homeowner.example', access_token: config.access_token },
    });
    expect(login.status).toBe(200);
    const pair = login.body as { access_token: string; refresh_token: string };
    const me = await t.call('GET', '/monitoring/me', { apiKey: null, token: pair.access_token });
    expect(me.body).toMatchObject({ id: 3, role: 'owner' });
    const refreshed = await t.call('POST', '/monitoring/auth/v2/refresh', {
      apiKey: null,
      body: { refresh_token: pair.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    expect((refreshed.body as { refresh_token: string }).refresh_token).not.toBe(pair.refresh_token);
  });

  it('refuses a configuration token for another username, and a monitoring token as a configuration one', async () => {
    const config = await t.login('owner');
    const mismatch = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: 'admin@fleet.example', access_token: config.access_token },
    });
    expect(mismatch.status).toBe(401);
    expect(mismatch.body).toMatchObject({ code: 'username_mismatch' });
    const asMonitoring = await t.call('GET', '/monitoring/me', { token: config.access_token });
    expect(asMonitoring.status).toBe(401);
  });

  it('keeps refresh tokens of the two services apart', async () => {
    const config = await t.login('owner');
    const crossed = await t.call('POST', '/monitoring/auth/v2/refresh', {
      body: { refresh_token: config.refresh_token },
    });
    expect(crossed.status).toBe(401);
    expect(crossed.body).toMatchObject({ code: 'invalid_refresh_token' });
  });

  it('answers accessToken on the older fleet-login with a base64 password', async () => {
    const password = Buffer.from('Owner#2026').toString('base64');
    const ok = await t.call('POST', '/monitoring/auth/fleet-login', {
      body: { username: 'owner@homeowner.example', password },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ accessToken: expect.any(String) });
    const wrong = await t.call('POST', '/monitoring/auth/fleet-login', {
      body: { username: 'owner@homeowner.example', password: Buffer.from('nope').toString('base64') },
    });
    expect(wrong.status).toBe(401);
    const notBase64 = await t.call('POST', '/monitoring/auth/fleet-login', {
      body: { username: 'owner@homeowner.example', password: '***' },
    });
    expect(notBase64.status).toBe(400);
    expect(notBase64.body).toMatchObject({ field: 'password' });
  });
});
