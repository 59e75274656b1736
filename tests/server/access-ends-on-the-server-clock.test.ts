import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { sha256 } from '../../server/auth/secrets.ts';
import { FLEET_CHANNEL } from '../../server/monitoring/fleet-feed.ts';
import { IDS, PASSWORDS, startTestServer, type TestServer } from './harness.ts';
import { type EventStream, openFleet } from './live-stream.ts';
import { pinForTest } from './test-clock.ts';

/**
 * Access tokens are issued and expire, sessions end, and sign-ins, keys and invitations are
 * revoked on the server's clock (`ctx.now`), the one API keys are created on: a test moves it and
 * sees each happen at its very millisecond, however far the clock is from the real time.
 */
const DAY_MS = 86_400_000;
/** A month behind the real time: read on the real time, every token of then has long expired. */
const monthAgo = () => Date.now() - 30 * DAY_MS;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ API_KEY_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

/** When an access token expires, in milliseconds since the epoch. */
function expiryOf(token: string): number {
  const [, payload = ''] = token.split('.');
  return (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp: number }).exp * 1000;
}

/** Sign in to the monitoring service with a configuration sign-in, as the app does. */
async function monitoringSignIn() {
  const config = await t.login('owner');
  const answer = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: PASSWORDS.owner[0], access_token: config.access_token },
  });
  expect(answer.status).toBe(200);
  return answer.body as { access_token: string; refresh_token: string };
}

/** Every fleet stream is told that something changed; answers once `stream` has heard it. */
async function heardBy<T>(stream: EventStream<T>): Promise<void> {
  const next = stream.next();
  // A payload that names no sites: every site may have changed.
  await sql`SELECT pg_notify(${FLEET_CHANNEL}, '')`.execute(t.server.ctx.db);
  await next;
}

/** A read key of the signed-in person, made at the server's clock. */
async function createKey(token: string, name: string): Promise<{ id: string; key: string }> {
  const answer = await t.call('POST', '/config/fleet/api-keys', { token, body: { name, scope: 'read' } });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; key: string };
}

/** When the refresh token's sign-in was revoked, in milliseconds since the epoch. */
async function revokedAt(refreshToken: string): Promise<number | undefined> {
  const row = await t.server.ctx.db
    .selectFrom('refresh_tokens')
    .select('revoked_at')
    .where('token_hash', '=', sha256(refreshToken))
    .executeTakeFirstOrThrow();
  return row.revoked_at?.getTime();
}

async function openedFleet(token: string) {
  const stream = await openFleet(t.origin, token);
  onTestFinished(() => stream.close());
  expect(stream.status).toBe(200);
  return stream;
}

describe('an access token', () => {
  it("answers until the millisecond it expires on the server's clock, then 401 token_invalid", async () => {
    const issued = pinForTest(t.clock, monthAgo() + 250);
    const { access_token } = await t.login('owner');
    const expires = expiryOf(access_token);
    expect(expires).toBe(Math.floor(issued / 1000) * 1000 + 900_000);
    const mySite = () => t.call('GET', `/config/fleet/sites/${IDS.siteOfOwner}`, { token: access_token });
    t.clock.advance(expires - 1 - issued);
    expect((await mySite()).status).toBe(200);
    t.clock.advance(1);
    expect(await mySite()).toMatchObject({ status: 401, body: { code: 'token_invalid' } });
  });

  it('of the configuration service mints a monitoring sign-in only until it expires', async () => {
    const issued = pinForTest(t.clock, monthAgo());
    const { access_token } = await t.login('owner');
    t.clock.advance(expiryOf(access_token) - issued);
    const late = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: PASSWORDS.owner[0], access_token },
    });
    expect(late).toMatchObject({ status: 401, body: { code: 'token_invalid' } });
  });
});

describe('a live stream', () => {
  it('ends at the millisecond its access token expires, not before', async () => {
    const issued = pinForTest(t.clock, monthAgo());
    const { access_token } = await monitoringSignIn();
    const stream = await openedFleet(access_token);
    t.clock.advance(expiryOf(access_token) - 1 - issued);
    await heardBy(stream);
    t.clock.advance(1);
    await stream.ended;
  });

  it('read with a key that never expires stays open, and ends a year on like a sign-in', async () => {
    const madeAt = pinForTest(t.clock, monthAgo());
    const { access_token } = await t.login('owner');
    const { key } = await createKey(access_token, 'wall display');
    const stream = await openedFleet(key);
    // A year is more than one timer holds: the stream must not take it for "now".
    await heardBy(stream);
    t.clock.advance(365 * DAY_MS - 1);
    await heardBy(stream);
    t.clock.advance(1);
    expect(t.clock.now()).toBe(madeAt + 365 * DAY_MS);
    await stream.ended;
  });
});

describe("a password change at the server's clock", () => {
  it('ends the sessions and keys begun before its millisecond, and none begun at it', async () => {
    const [email, password] = PASSWORDS.installerB;
    const newPassword = 'Turned-over#2027';
    const before = pinForTest(t.clock, monthAgo());
    const old = await t.login('installerB');
    const oldKey = await createKey(old.access_token, 'before');
    t.clock.advance(1);
    const changedAt = before + 1;
    const changed = await t.call('PUT', '/config/users/me/password', {
      token: old.access_token,
      body: { current_password: password, new_password: newPassword },
    });
    expect(changed.status).toBe(204);
    const me = (token: string) => t.call('GET', `/config/users/${IDS.installerB}`, { token });
    expect(await me(old.access_token)).toMatchObject({ status: 401, body: { code: 'session_ended' } });
    const withOldKey = await t.call('GET', `/config/users/${IDS.installerB}`, {
      token: oldKey.key,
      apiKey: null,
    });
    expect(withOldKey.status).toBe(401);
    // Signed in again in the same millisecond: that session began with the new password.
    const again = await t.call('POST', '/config/auth/v2/login', {
      body: { main_email: email, password: newPassword },
    });
    expect(again.status).toBe(200);
    const fresh = (again.body as { access_token: string }).access_token;
    expect((await me(fresh)).status).toBe(200);
    const newKey = await createKey(fresh, 'after');
    const withNewKey = await t.call('GET', `/config/users/${IDS.installerB}`, {
      token: newKey.key,
      apiKey: null,
    });
    expect(withNewKey.status).toBe(200);
    const stamped = await t.server.ctx.db
      .selectFrom('users')
      .select('sessions_valid_after')
      .where('id', '=', IDS.installerB)
      .executeTakeFirstOrThrow();
    expect(stamped.sessions_valid_after?.getTime()).toBe(changedAt);
    expect(await revokedAt(old.refresh_token)).toBe(changedAt);
  });
});

describe("revocations are stamped with the server's clock", () => {
  it('a sign-out', async () => {
    const at = pinForTest(t.clock, monthAgo());
    const { refresh_token } = await t.login('owner');
    t.clock.advance(60_000);
    expect((await t.call('POST', '/config/auth/v2/logout', { body: { refresh_token } })).status).toBe(204);
    expect(await revokedAt(refresh_token)).toBe(at + 60_000);
  });

  it('a sign-in revoked for a replayed refresh token', async () => {
    const at = pinForTest(t.clock, monthAgo());
    const { refresh_token } = await t.login('owner');
    const refresh = () => t.call('POST', '/config/auth/v2/refresh', { body: { refresh_token } });
    expect((await refresh()).status).toBe(200);
    // Past the grace window: the same token again is a replay.
    t.clock.advance(3_600_000);
    expect(await refresh()).toMatchObject({ status: 401, body: { code: 'refresh_token_reused' } });
    expect(await revokedAt(refresh_token)).toBe(at + 3_600_000);
  });

  it('an API key', async () => {
    const at = pinForTest(t.clock, monthAgo());
    const { access_token } = await t.login('owner');
    const { id } = await createKey(access_token, 'to revoke');
    t.clock.advance(5_000);
    expect((await t.call('DELETE', `/config/fleet/api-keys/${id}`, { token: access_token })).status).toBe(
      204,
    );
    const row = await t.server.ctx.db
      .selectFrom('api_keys')
      .select(['created_at', 'revoked_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.created_at.getTime()).toBe(at);
    expect(row.revoked_at?.getTime()).toBe(at + 5_000);
  });

  it('a withdrawn invitation', async () => {
    const at = pinForTest(t.clock, monthAgo());
    const { access_token } = await t.login('installerA');
    const invited = await t.call('POST', '/config/companies/mine/invitations', {
      token: access_token,
      body: { email: 'wren@solarpros.example', role: 'installer' },
    });
    expect(invited.status).toBe(201);
    const row = await t.server.ctx.db
      .selectFrom('company_invitations')
      .select('id')
      .where('email', '=', 'wren@solarpros.example')
      .executeTakeFirstOrThrow();
    t.clock.advance(5_000);
    const withdrawn = await t.call('DELETE', `/config/companies/mine/invitations/${row.id}`, {
      token: access_token,
    });
    expect(withdrawn.status).toBe(200);
    const stamped = await t.server.ctx.db
      .selectFrom('company_invitations')
      .select('revoked_at')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stamped.revoked_at?.getTime()).toBe(at + 5_000);
  });
});
