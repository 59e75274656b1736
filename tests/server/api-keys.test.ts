import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { IDS, PASSWORDS, startTestServer, type TestServer } from './harness.ts';
import { openFleet } from './live-stream.ts';
import { pinForTest } from './test-clock.ts';

const DAY_MS = 86_400_000;

let t: TestServer;
let tokens: Record<'admin' | 'owner' | 'installerA', string>;

beforeAll(async () => {
  t = await startTestServer({ API_KEY_RATE_LIMIT: '1000' });
  tokens = {
    admin: (await t.login('admin')).access_token,
    owner: (await t.login('owner')).access_token,
    installerA: (await t.login('installerA')).access_token,
  };
});
afterAll(() => t?.close());

interface Created {
  id: string;
  name: string;
  scope: string;
  expiresAt: string | null;
  key: string;
}

async function createKey(token: string, body: Record<string, unknown>): Promise<Created> {
  const answer = await t.call('POST', '/config/fleet/api-keys', { token, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Created;
}

/** A call made with nothing but the key: no `api-key` header, no sign-in. */
const withKey = (method: string, path: string, key: string, body?: unknown, ip?: string) =>
  t.call(method, path, {
    token: key,
    apiKey: null,
    ...(body === undefined ? {} : { body }),
    ...(ip ? { ip } : {}),
  });

describe('API keys', () => {
  it('creates a key shown once, stored only under an HMAC, and lists it without its text', async () => {
    const created = await createKey(tokens.installerA, {
      name: ' Spreadsheet ',
      scope: 'read',
      expiresInDays: 90,
    });
    expect(created.key).toMatch(/^fm_pat_[A-Za-z0-9_-]{43}$/);
    expect(created.name).toBe('Spreadsheet');
    const days = (Date.parse(created.expiresAt ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);
    const stored = await t.server.ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.key);
    expect(JSON.stringify(stored)).not.toContain(created.key.slice(7));

    const list = await t.call('GET', '/config/fleet/api-keys', { token: tokens.installerA });
    expect(list.status).toBe(200);
    const keys = (list.body as { keys: Record<string, unknown>[] }).keys;
    const mine = keys.find((key) => key.id === created.id);
    expect(mine).toMatchObject({
      name: 'Spreadsheet',
      scope: 'read',
      lastUsedAt: null,
      lastUsedAddress: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(created.key);
    // Another person's list does not show it.
    const others = await t.call('GET', '/config/fleet/api-keys', { token: tokens.owner });
    expect(JSON.stringify(others.body)).not.toContain(created.id);
  });

  it('answers 400 with a clear message for a bad name, scope or expiry', async () => {
    const cases: [unknown, string][] = [
      [{ scope: 'read' }, 'name'],
      [{ name: '   ', scope: 'read' }, 'name must not be empty'],
      [{ name: 'x'.repeat(81), scope: 'read' }, 'at most 80'],
      [{ name: 'a', scope: 'admin' }, 'scope must be "read" or "write"'],
      [{ name: 'a', scope: 'read', expiresInDays: 7 }, 'expiresInDays must be 30, 90 or 365'],
      [{ name: 'a', scope: 'read', owner: 1 }, 'owner'],
    ];
    for (const [body, message] of cases) {
      const answer = await t.call('POST', '/config/fleet/api-keys', { token: tokens.owner, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body as { message: string }).message).toContain(message);
    }
  });

  it('works on both services with nothing but the key, as its owner', async () => {
    const { key } = await createKey(tokens.owner, { name: 'both', scope: 'read' });
    const config = await withKey('GET', `/config/fleet/sites/${IDS.siteOfOwner}`, key);
    expect(config.status).toBe(200);
    const me = await withKey('GET', '/monitoring/me', key);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: IDS.owner, role: 'owner' });
    const now = await withKey('GET', `/monitoring/sites/${IDS.siteOfOwner}/now`, key);
    expect(now.status).toBe(200);
    // No more than the owner: another installer's site stays hidden.
    expect((await withKey('GET', `/monitoring/sites/${IDS.siteOfB}/now`, key)).status).toBe(404);
    expect((await withKey('GET', `/config/fleet/sites/${IDS.siteOfB}`, key)).status).toBe(404);
  });

  it("refuses a read key's change with 403 and lets a write key make it", async () => {
    const read = await createKey(tokens.owner, { name: 'read', scope: 'read' });
    const write = await createKey(tokens.owner, { name: 'write', scope: 'write' });
    const profile = { name: 'Olivia Homeowner', phone: '+1 512 555 0199' };
    const refused = await withKey('PUT', '/config/users/me/profile', read.key, profile);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'api_key_read_only' });
    const refusedOnMonitoring = await withKey('POST', '/monitoring/alarms/1/acknowledge', read.key, {});
    expect(refusedOnMonitoring.status).toBe(403);
    expect((await withKey('PUT', '/config/users/me/profile', write.key, profile)).status).toBe(200);
  });

  it('answers 401 at once for a revoked key, and 404 for revoking a key one does not hold', async () => {
    const created = await createKey(tokens.owner, { name: 'to revoke', scope: 'write' });
    expect((await withKey('GET', '/monitoring/me', created.key)).status).toBe(200);
    const foreign = await t.call('DELETE', `/config/fleet/api-keys/${created.id}`, {
      token: tokens.installerA,
    });
    expect(foreign.status).toBe(404);
    const revoked = await t.call('DELETE', `/config/fleet/api-keys/${created.id}`, { token: tokens.owner });
    expect(revoked.status).toBe(204);
    for (const path of ['/monitoring/me', `/config/fleet/sites/${IDS.siteOfOwner}`]) {
      const answer = await withKey('GET', path, created.key);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ code: 'pat_invalid' });
    }
    const list = await t.call('GET', '/config/fleet/api-keys', { token: tokens.owner });
    expect(JSON.stringify(list.body)).not.toContain(created.id);
    expect(
      (await t.call('DELETE', `/config/fleet/api-keys/${created.id}`, { token: tokens.owner })).status,
    ).toBe(404);
  });

  it("runs out exactly when its days have passed on the server's clock", async () => {
    // Made well in the past: a key that read the real time, made or checked, would be judged wrongly.
    const madeAt = pinForTest(t.clock, Date.now() - 100 * DAY_MS);
    const created = await createKey(tokens.owner, { name: 'short', scope: 'read', expiresInDays: 30 });
    expect(created.expiresAt).toBe(new Date(madeAt + 30 * DAY_MS).toISOString());
    t.clock.advance(30 * DAY_MS - 1);
    expect((await withKey('GET', '/monitoring/me', created.key)).status).toBe(200);
    t.clock.advance(1);
    const expired = await withKey('GET', '/monitoring/me', created.key);
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: 'pat_invalid' });
  });

  it("ends a stream read with a key once the key runs out on the server's clock", async () => {
    // Made so that it runs out an hour from now in real time: only the server's clock says it ran out.
    const madeAt = pinForTest(t.clock, Date.now() - 30 * DAY_MS + 3_600_000);
    const created = await createKey(tokens.owner, { name: 'streaming', scope: 'read', expiresInDays: 30 });
    t.clock.advance(30 * DAY_MS - 1);
    const stream = await openFleet(t.origin, created.key);
    onTestFinished(() => stream.close());
    expect(stream.status).toBe(200);
    t.clock.advance(1);
    expect(t.clock.now()).toBe(madeAt + 30 * DAY_MS);
    // Anything that makes the stream ask whether its caller still holds: the key does not.
    await t.server.ctx.monitoring.live.announce({ users: [IDS.owner] });
    await stream.ended;
  });

  it('never lets a key create, list or revoke keys, or change a password or e-mail', async () => {
    const { id, key } = await createKey(tokens.owner, { name: 'limited', scope: 'write' });
    const create = await withKey('POST', '/config/fleet/api-keys', key, { name: 'child', scope: 'write' });
    expect(create.status).toBe(403);
    expect((await withKey('GET', '/config/fleet/api-keys', key)).status).toBe(403);
    expect((await withKey('DELETE', `/config/fleet/api-keys/${id}`, key)).status).toBe(403);
    const password = await withKey('PUT', '/config/users/me/password', key, {
      current_password: PASSWORDS.owner[1],
      new_password: 'Another-roof#2027',
    });
    expect(password.status).toBe(403);
    expect(password.body).toMatchObject({ code: 'api_key_forbidden' });
    const email = await withKey('PUT', `/config/users/${IDS.owner}`, key, {
      main_email: 'olivia@elsewhere.example',
      current_password: PASSWORDS.owner[1],
    });
    expect(email.status).toBe(403);
    expect((await t.login('owner')).access_token).toBeTruthy();
  });

  it('audits a key made, used from a new address, and revoked', async () => {
    const { id, key } = await createKey(tokens.installerA, { name: 'audited', scope: 'read' });
    await withKey('GET', '/monitoring/me', key, undefined, '192.0.2.10');
    await withKey('GET', '/monitoring/me', key, undefined, '192.0.2.10');
    await withKey('GET', '/monitoring/me', key, undefined, '192.0.2.11');
    await withKey('GET', '/monitoring/me', key, undefined, '192.0.2.10');
    const list = await t.call('GET', '/config/fleet/api-keys', { token: tokens.installerA });
    const listed = (
      list.body as { keys: { id: string; lastUsedAt: string; lastUsedAddress: string }[] }
    ).keys.find((entry) => entry.id === id);
    expect(listed?.lastUsedAddress).toBe('192.0.2.10');
    expect(listed?.lastUsedAt).toMatch(/^\d{4}-/);
    await t.call('DELETE', `/config/fleet/api-keys/${id}`, { token: tokens.installerA });
    const audit = await t.server.ctx.db
      .selectFrom('api_key_audit')
      .select(['action', 'address', 'user_id'])
      .where('key_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'created', address: '203.0.113.7', user_id: IDS.installerA },
      { action: 'new-address', address: '192.0.2.10', user_id: IDS.installerA },
      { action: 'new-address', address: '192.0.2.11', user_id: IDS.installerA },
      { action: 'revoked', address: '203.0.113.7', user_id: IDS.installerA },
    ]);
  });

  it('answers 401 for a key with random text, or an Authorization header of any shape, and never 500', async () => {
    const { key } = await createKey(tokens.owner, { name: 'fuzz', scope: 'read' });
    const header = fc.oneof(
      fc.string({ maxLength: 300 }).map((text) => `Bearer fm_pat_${text}`),
      fc.stringMatching(/^[A-Za-z0-9_-]{0,60}$/).map((text) => `Bearer fm_pat_${text}`),
      fc.string({ maxLength: 100 }).map((text) => `Bearer ${key}${text}`),
      fc.string({ maxLength: 200 }),
      fc.constantFrom('Bearer', 'Bearer ', `bearer ${key.toUpperCase()}`, `Basic ${key}`, `Bearer  fm_pat_`),
    );
    await fc.assert(
      fc.asyncProperty(header, async (value) => {
        // fetch refuses some header values itself (control characters); the server never sees those.
        let answer: Awaited<ReturnType<typeof t.call>>;
        try {
          answer = await t.call('GET', '/monitoring/me', { apiKey: null, headers: { authorization: value } });
        } catch {
          return;
        }
        // fetch strips the value's leading and trailing HTTP whitespace, as a proxy would.
        if (value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '') === `Bearer ${key}`)
          expect(answer.status).toBe(200);
        else expect([400, 401]).toContain(answer.status);
      }),
      { numRuns: 150 },
    );
    expect((await withKey('GET', '/monitoring/me', key)).status).toBe(200);
  });

  it('answers the create route 201 or 400, never anything else, for any body', async () => {
    const body = fc.oneof(
      fc.record(
        {
          name: fc.oneof(fc.string({ maxLength: 100 }), fc.integer(), fc.constant(null)),
          scope: fc.oneof(fc.constantFrom('read', 'write', 'READ', ''), fc.string()),
          expiresInDays: fc.oneof(fc.constantFrom(30, 90, 365, null, 0, -1, 1e308, '30'), fc.double()),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const answer = await t.call('POST', '/config/fleet/api-keys', {
          token: tokens.admin,
          body: JSON.stringify(value) ?? '',
        });
        expect([201, 400]).toContain(answer.status);
      }),
      { numRuns: 150 },
    );
  });
});

async function monitoringToken(configToken: string): Promise<string> {
  const answer = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: PASSWORDS.owner[0], access_token: configToken },
  });
  return (answer.body as { access_token: string }).access_token;
}

describe('a key acts with its owner’s rights as they are now', () => {
  it('loses a site with its owner, and stops when the owner changes password', async () => {
    const owner = await t.login('owner');
    const { key } = await createKey(owner.access_token, { name: 'owner now', scope: 'read' });
    const site = `/monitoring/sites/${IDS.siteOfOwner}/now`;
    expect((await withKey('GET', site, key)).status).toBe(200);
    const taken = await t.call('PUT', '/config/fleet/site-access/set-access', {
      token: tokens.admin,
      body: { siteId: IDS.siteOfOwner, userId: IDS.owner, access: false },
    });
    expect(taken.status).toBe(200);
    expect((await t.call('GET', site, { token: await monitoringToken(owner.access_token) })).status).toBe(
      404,
    );
    expect((await withKey('GET', site, key)).status).toBe(404);
    const details = `/config/fleet/sites/${IDS.siteOfOwner}`;
    const asPerson = await t.call('GET', details, { token: owner.access_token });
    expect(asPerson.status).toBeGreaterThanOrEqual(403);
    expect((await withKey('GET', details, key)).status).toBe(asPerson.status);
    // Still the owner's key elsewhere, until their sessions end: a new password ends it too.
    expect((await withKey('GET', '/monitoring/me', key)).status).toBe(200);
    const changed = await t.call('PUT', '/config/users/me/password', {
      token: owner.access_token,
      body: { current_password: PASSWORDS.owner[1], new_password: 'Sunny-roof#2027' },
    });
    expect(changed.status).toBe(204);
    const ended = await withKey('GET', '/monitoring/me', key);
    expect(ended.status).toBe(401);
    expect((await withKey('GET', '/config/fleet/sites/1', key)).status).toBe(401);
  });
});

describe('rate limit per key', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ API_KEY_RATE_LIMIT: '3' });
  });
  afterAll(() => limited?.close());

  it('answers 429 with Retry-After and the RateLimit headers once the bucket is empty, on either service', async () => {
    const { access_token } = await limited.login('owner');
    const answer = await limited.call('POST', '/config/fleet/api-keys', {
      token: access_token,
      body: { name: 'busy', scope: 'read' },
    });
    const { key } = answer.body as Created;
    const call = (path: string) => limited.call('GET', path, { token: key, apiKey: null });
    const first = await call('/monitoring/me');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"key";q=3;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"key";r=2;t=\d+$/);
    expect((await call('/config/fleet/sites/1')).status).toBe(200);
    expect((await call('/monitoring/me')).status).toBe(200);
    const refused = await call('/config/fleet/sites/1');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(20);
    expect(refused.headers.get('ratelimit-policy')).toBe('"key";q=3;w=60');
    expect(refused.headers.get('ratelimit')).toBe(`"key";r=0;t=${retryAfter}`);
    expect(refused.body).toMatchObject({ code: 'rate_limited' });
    // The bucket is the key's, not the person's: their own sign-in is not limited.
    expect((await limited.call('GET', '/config/fleet/sites/1', { token: access_token })).status).toBe(200);
  });

  it("fills again on the server's clock: a call Retry-After later passes, one a millisecond earlier does not", async () => {
    const { access_token } = await limited.login('owner');
    pinForTest(limited.clock, Date.now() - DAY_MS);
    const answer = await limited.call('POST', '/config/fleet/api-keys', {
      token: access_token,
      body: { name: 'refilled', scope: 'read' },
    });
    const { key } = answer.body as Created;
    const call = () => limited.call('GET', '/monitoring/me', { token: key, apiKey: null });
    for (const left of [2, 1, 0])
      expect((await call()).headers.get('ratelimit')).toBe(`"key";r=${left};t=${20 * (3 - left)}`);
    // Empty, and the clock held: one call fills again in 60 s / 3 = 20 s, however long the test takes.
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('20');
    limited.clock.advance(20_000 - 1);
    const early = await call();
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('1');
    limited.clock.advance(1);
    const again = await call();
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit')).toBe('"key";r=0;t=60');
    // A minute on, the bucket is full again: three calls pass, the fourth waits.
    limited.clock.advance(60_000);
    for (const left of [2, 1, 0]) expect((await call()).status, `with ${left} left`).toBe(200);
    expect((await call()).status).toBe(429);
  });

  it('counts no time twice when one process reads an earlier time than another', async () => {
    const { access_token } = await limited.login('owner');
    const at = pinForTest(limited.clock, Date.now() - DAY_MS);
    const answer = await limited.call('POST', '/config/fleet/api-keys', {
      token: access_token,
      body: { name: 'two clocks', scope: 'read' },
    });
    const { key } = answer.body as Created;
    const call = () => limited.call('GET', '/monitoring/me', { token: key, apiKey: null });
    for (let i = 0; i < 3; i += 1) expect((await call()).status).toBe(200);
    // A process 10 s behind: nothing has filled by its clock, and the bucket's time stays.
    limited.clock.pin(at - 10_000);
    expect((await call()).status).toBe(429);
    // 20 s on from the last call fills exactly one call, not one and a half.
    limited.clock.pin(at + 20_000);
    const one = await call();
    expect(one.status).toBe(200);
    expect(one.headers.get('ratelimit')).toBe('"key";r=0;t=60');
  });
});
