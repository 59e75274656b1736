import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseEnv } from '../../server/env.ts';
import { sealSecret } from '../../server/webhooks/secret-box.ts';
import { blockedKind, guardedLookup } from '../../server/webhooks/target-guard.ts';
import { durableDatabase, IDS, startTestServer, type TestServer } from './harness.ts';

/** What one path of the receiver got: each request's headers and body, in order. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver: each path answers with its own status function (200 by default) and keeps
 * what it got. It can be stopped and started again on the same port (an endpoint that was down).
 */
class Receiver {
  readonly got = new Map<string, Received[]>();
  readonly answers = new Map<string, (count: number) => number>();
  readonly bodies = new Map<string, string>();
  /** The next request to a path is answered only once its promise settles (a slow receiver). */
  readonly holds = new Map<string, Promise<void>>();
  private server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        const list = this.got.get(path) ?? [];
        list.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        this.got.set(path, list);
        const hold = this.holds.get(path);
        this.holds.delete(path);
        void (hold ?? Promise.resolve()).then(() => {
          response.statusCode = this.answers.get(path)?.(list.length) ?? 200;
          response.end(this.bodies.get(path) ?? (response.statusCode === 200 ? 'ok' : 'not now'));
        });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  of(path: string): Received[] {
    return this.got.get(path) ?? [];
  }
}

let t: TestServer;
const receiver = new Receiver();
let tokens: Record<'admin' | 'installerA' | 'installerB', string>;

beforeAll(async () => {
  t = await startTestServer({ ALARM_OFFLINE_AFTER_S: '60' });
  await receiver.start();
  tokens = {
    admin: (await t.login('admin')).access_token,
    installerA: (await t.login('installerA')).access_token,
    installerB: (await t.login('installerB')).access_token,
  };
});
afterAll(async () => {
  await receiver.stop();
  await t?.close();
});

interface Created {
  id: string;
  url: string;
  events: string[];
  siteId: number | null;
  siteName: string | null;
  secret: string;
}

async function subscribe(token: string, body: Record<string, unknown>): Promise<Created> {
  const answer = await t.call('POST', '/config/fleet/webhooks', { token, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Created;
}

const sender = () => t.server.ctx.webhooks.sender;

/** A site's name as stored: what events and webhook answers must name it. */
const siteNameOf = async (siteId: number) =>
  (
    await t.server.ctx.db
      .selectFrom('sites')
      .select('name')
      .where('id', '=', siteId)
      .executeTakeFirstOrThrow()
  ).name;

/** Make every waiting retry due now, as if its backoff had passed. */
const makeDue = () =>
  t.server.ctx.db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: new Date(Date.now() - 1000) })
    .where('status', '=', 'pending')
    .execute();

let serials = 0;
/** Put a new device on a site, as an installer does: answers its serial. */
async function install(token: string, siteId: number): Promise<string> {
  serials += 1;
  const serial = `HX5K-26-0094${String(serials).padStart(2, '0')}`;
  const answer = await t.call('POST', `/config/fleet/sites/${siteId}/installs`, {
    token,
    body: { serial, modelId: 'HX-5000', name: `Webhook unit ${serials}` },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return serial;
}

/** The events a receiver's path got, verified with the endpoint's secret (throws when one does not verify). */
function verified(path: string, secret: string): { type: string; data: Record<string, unknown> }[] {
  const webhook = new Webhook(secret);
  return receiver.of(path).map(
    (request) =>
      webhook.verify(request.body, request.headers as Record<string, string>) as {
        type: string;
        data: Record<string, unknown>;
      },
  );
}

describe('webhooks', () => {
  it('creates an endpoint with a whsec_ secret shown once and kept sealed, and lists it without', async () => {
    const created = await subscribe(tokens.installerA, {
      url: receiver.url('/listed'),
      events: ['device.installed', 'device.installed', 'alarm.raised'],
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.events).toEqual(['device.installed', 'alarm.raised']);
    const stored = await t.server.ctx.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.secret.slice(6));
    const list = await t.call('GET', '/config/fleet/webhooks', { token: tokens.installerA });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(created.id);
    expect(JSON.stringify(list.body)).not.toContain(created.secret.slice(6));
    const others = await t.call('GET', '/config/fleet/webhooks', { token: tokens.installerB });
    expect(JSON.stringify(others.body)).not.toContain(created.id);
  });

  it('answers 400 with a clear message for bad input', async () => {
    const cases: [unknown, string][] = [
      [{ events: ['alarm.raised'] }, 'url is required'],
      [
        { url: 'ftp://example.com/x', events: ['alarm.raised'] },
        'url must be an http:// or https:// address',
      ],
      [{ url: 'not-a-url', events: ['alarm.raised'] }, 'url must be an http:// or https:// address'],
      [{ url: 'https://example.com/a b', events: ['alarm.raised'] }, 'url must not contain spaces'],
      [
        { url: 'https://user:pw@example.com/', events: ['alarm.raised'] },
        'must not carry a user name or password',
      ],
      [{ url: receiver.url('/x'), events: [] }, 'events must name at least one event'],
      [{ url: receiver.url('/x'), events: ['alarm.exploded'] }, 'events must name events of this list'],
      [{ url: receiver.url('/x') }, 'events'],
      [{ url: receiver.url('/x'), events: ['alarm.raised'], siteId: 'five' }, 'siteId'],
      [{ url: receiver.url('/x'), events: ['alarm.raised'], secret: 'mine' }, 'secret'],
      [
        { url: `https://example.com/${'x'.repeat(2000)}`, events: ['alarm.raised'] },
        'at most 2000 characters',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await t.call('POST', '/config/fleet/webhooks', { token: tokens.installerA, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body as { message: string }).message).toContain(message);
    }
    const put = await t.call('PUT', `/config/fleet/webhooks/${crypto.randomUUID()}`, {
      token: tokens.installerA,
      body: {},
    });
    expect(put.status).toBe(400);
    expect((put.body as { message: string }).message).toContain('give at least one of');
  });

  it("answers 404 for another company's webhook, its deliveries, and a site the caller does not see", async () => {
    const mine = await subscribe(tokens.installerA, { url: receiver.url('/mine'), events: ['alarm.raised'] });
    const test = await t.call('POST', `/config/fleet/webhooks/${mine.id}/test`, { token: tokens.installerA });
    expect(test.status).toBe(200);
    const deliveryId = (test.body as { id: number }).id;
    const as = (method: string, path: string, body?: unknown) =>
      t.call(method, path, { token: tokens.installerB, ...(body === undefined ? {} : { body }) });
    expect((await as('PUT', `/config/fleet/webhooks/${mine.id}`, { disabled: true })).status).toBe(404);
    expect((await as('DELETE', `/config/fleet/webhooks/${mine.id}`)).status).toBe(404);
    expect((await as('POST', `/config/fleet/webhooks/${mine.id}/test`)).status).toBe(404);
    expect((await as('GET', `/config/fleet/webhooks/${mine.id}/deliveries`)).status).toBe(404);
    expect((await as('POST', `/config/fleet/webhooks/deliveries/${deliveryId}/retry`)).status).toBe(404);
    const elsewhere = await as('POST', '/config/fleet/webhooks', {
      url: receiver.url('/b'),
      events: ['alarm.raised'],
      siteId: IDS.siteOfA,
    });
    expect(elsewhere.status).toBe(404);
    // Nothing was sent to installer A's endpoint by any of it but its own test.
    expect(receiver.of('/mine').map((r) => JSON.parse(r.body).type)).toEqual(['webhook.test']);
  });

  it('tells of a device moved to another site as removed from the one and installed at the other', async () => {
    const [from, to] = [IDS.siteOfA, IDS.siteOfA + 1];
    const old = await subscribe(tokens.installerA, {
      url: receiver.url('/left'),
      events: ['device.installed', 'device.removed'],
      siteId: from,
    });
    const joined = await subscribe(tokens.installerA, {
      url: receiver.url('/joined'),
      events: ['device.installed', 'device.removed'],
      siteId: to,
    });
    const serial = await install(tokens.installerA, from);
    const { id } = await t.server.ctx.db
      .selectFrom('devices')
      .select('id')
      .where('serial', '=', serial)
      .executeTakeFirstOrThrow();
    const moved = await t.call('PUT', `/config/fleet/installs/${id}`, {
      token: tokens.installerA,
      body: { siteId: to },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await sender().flush();
    expect(verified('/left', old.secret).map((e) => [e.type, e.data])).toEqual([
      ['device.installed', expect.objectContaining({ serial, siteId: from })],
      [
        'device.removed',
        expect.objectContaining({
          serial,
          siteId: from,
          name: expect.stringMatching(/^Webhook unit/),
          movedTo: { siteId: to, siteName: await siteNameOf(to) },
        }),
      ],
    ]);
    expect(verified('/joined', joined.secret).map((e) => [e.type, e.data])).toEqual([
      [
        'device.installed',
        expect.objectContaining({
          serial,
          siteId: to,
          movedFrom: { siteId: from, siteName: await siteNameOf(from) },
        }),
      ],
    ]);
  });

  it('delivers device.installed and alarm.raised, signed so that they verify with the secret', async () => {
    const hook = await subscribe(tokens.installerA, {
      url: receiver.url('/signed'),
      events: ['device.installed', 'alarm.raised', 'device.offline'],
      siteId: IDS.siteOfA,
    });
    // The site is named wherever the webhook is answered, so its owner reads which site it is.
    const siteName = await siteNameOf(IDS.siteOfA);
    expect(hook).toMatchObject({ siteId: IDS.siteOfA, siteName });
    const listed = await t.call('GET', '/config/fleet/webhooks', { token: tokens.installerA });
    expect((listed.body as { webhooks: Created[] }).webhooks.find((w) => w.id === hook.id)).toMatchObject({
      siteName,
    });
    const serial = await install(tokens.installerA, IDS.siteOfA);
    await sender().flush();
    const installed = verified('/signed', hook.secret);
    expect(installed).toEqual([
      expect.objectContaining({
        type: 'device.installed',
        data: expect.objectContaining({ serial, modelId: 'HX-5000', siteId: IDS.siteOfA }),
      }),
    ]);
    const [first] = receiver.of('/signed');
    expect(first?.headers['webhook-id']).toMatch(/^msg_/);
    expect(first?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        first?.body ?? '',
        first?.headers as Record<string, string>,
      ),
    ).toThrow();

    // The new device stays silent past the limit: an alarm is raised, and the device is offline.
    const { alarms } = t.server.ctx.monitoring;
    const start = Date.now();
    for (let i = 1; i <= 6; i += 1) await alarms.sweepOffline(start + i * 20_000);
    await sender().flush();
    const events = verified('/signed', hook.secret);
    const raised = events.filter((e) => e.type === 'alarm.raised' && e.data.serial === serial);
    expect(raised).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ siteId: IDS.siteOfA, rule: 'never-connected' }),
      }),
    ]);
    expect(events.filter((e) => e.type === 'device.offline').map((e) => e.data.serial)).toContain(serial);
    // Only this site's events reached the endpoint subscribed to it.
    expect(events.every((e) => e.data.siteId === IDS.siteOfA)).toBe(true);
  });

  it('sends an event only to endpoints whose owner sees its site', async () => {
    const a = await subscribe(tokens.installerA, {
      url: receiver.url('/a-all'),
      events: ['device.installed'],
    });
    const b = await subscribe(tokens.installerB, {
      url: receiver.url('/b-all'),
      events: ['device.installed'],
    });
    const serial = await install(tokens.installerB, IDS.siteOfB);
    await sender().flush();
    expect(verified('/b-all', b.secret).map((e) => e.data.serial)).toEqual([serial]);
    expect(verified('/a-all', a.secret).map((e) => e.data.serial)).not.toContain(serial);
  });

  it('tries again after three 500s, with the same webhook-id, and the fourth try delivers', async () => {
    receiver.answers.set('/flaky', (count) => (count <= 3 ? 500 : 200));
    const hook = await subscribe(tokens.installerA, {
      url: receiver.url('/flaky'),
      events: ['device.installed'],
    });
    const serial = await install(tokens.installerA, IDS.siteOfA);
    await sender().flush();
    for (let tries = 1; tries < 4; tries += 1) {
      const [delivery] = await t.server.ctx.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'attempts', 'next_attempt_at'])
        .where('endpoint_id', '=', hook.id)
        .execute();
      // Waiting for its backoff: nothing is sent before it is due.
      expect(delivery).toMatchObject({ status: 'pending', attempts: tries });
      expect(delivery?.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
      await sender().flush();
      expect(receiver.of('/flaky')).toHaveLength(tries);
      await makeDue();
      await sender().flush();
    }
    const got = receiver.of('/flaky');
    expect(got).toHaveLength(4);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(verified('/flaky', hook.secret).at(-1)?.data.serial).toBe(serial);
    const deliveries = await t.call('GET', `/config/fleet/webhooks/${hook.id}/deliveries`, {
      token: tokens.installerA,
    });
    const [listed] = (
      deliveries.body as {
        deliveries: { status: string; attempts: { status: number; response: string }[] }[];
      }
    ).deliveries;
    expect(listed?.status).toBe('delivered');
    expect(listed?.attempts.map((a) => a.status)).toEqual([500, 500, 500, 200]);
    expect(listed?.attempts[0]?.response).toBe('not now');
  });

  it('gets everything, in order, from an endpoint that was down when it is back', async () => {
    const hook = await subscribe(tokens.installerA, {
      url: receiver.url('/down'),
      events: ['device.installed'],
    });
    const port = receiver.port;
    await receiver.stop();
    const sent: string[] = [];
    for (let i = 0; i < 3; i += 1) sent.push(await install(tokens.installerA, IDS.siteOfA));
    await sender().flush();
    await makeDue();
    await sender().flush();
    const waiting = await t.server.ctx.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts'])
      .where('endpoint_id', '=', hook.id)
      .orderBy('id')
      .execute();
    // Only the oldest was tried (twice); the others wait behind it.
    expect(waiting).toEqual([
      { status: 'pending', attempts: 2 },
      { status: 'pending', attempts: 0 },
      { status: 'pending', attempts: 0 },
    ]);
    receiver.port = port;
    await receiver.start();
    await makeDue();
    await sender().flush();
    expect(verified('/down', hook.secret).map((e) => e.data.serial)).toEqual(sent);
    const attempts = await t.call('GET', `/config/fleet/webhooks/${hook.id}/deliveries`, {
      token: tokens.installerA,
    });
    const first = (attempts.body as { deliveries: { attempts: { error: string | null }[] }[] }).deliveries.at(
      -1,
    );
    expect(first?.attempts[0]?.error).toContain('ECONNREFUSED');
  });

  it('sends a delivery again by hand with the same webhook-id', async () => {
    const hook = await subscribe(tokens.installerA, {
      url: receiver.url('/again'),
      events: ['alarm.raised'],
    });
    const test = await t.call('POST', `/config/fleet/webhooks/${hook.id}/test`, { token: tokens.installerA });
    const { id, webhookId } = test.body as { id: number; webhookId: string };
    const again = await t.call('POST', `/config/fleet/webhooks/deliveries/${id}/retry`, {
      token: tokens.installerA,
    });
    expect(again.status).toBe(200);
    expect(receiver.of('/again').map((r) => r.headers['webhook-id'])).toEqual([webhookId, webhookId]);
    expect(verified('/again', hook.secret).map((e) => e.type)).toEqual(['webhook.test', 'webhook.test']);
  });

  it('records an answer with a NUL character, as text the database holds', async () => {
    receiver.bodies.set('/nul', 'ok\u0000done');
    const hook = await subscribe(tokens.installerA, { url: receiver.url('/nul'), events: ['alarm.raised'] });
    await t.call('POST', `/config/fleet/webhooks/${hook.id}/test`, { token: tokens.installerA });
    const deliveries = await t.call('GET', `/config/fleet/webhooks/${hook.id}/deliveries`, {
      token: tokens.installerA,
    });
    const [delivery] = (
      deliveries.body as { deliveries: { status: string; attempts: { response: string }[] }[] }
    ).deliveries;
    expect(delivery?.status).toBe('delivered');
    expect(delivery?.attempts[0]?.response).toBe('okdone');
  });

  it('disables an endpoint that failed for 24 hours and mails its owner', async () => {
    receiver.answers.set('/dead', () => 503);
    const hook = await subscribe(tokens.installerA, {
      url: receiver.url('/dead'),
      events: ['device.installed'],
    });
    await install(tokens.installerA, IDS.siteOfA);
    await sender().flush();
    // Failing since a day ago: the next failure is the last.
    await t.server.ctx.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: new Date(Date.now() - 86_400_000) })
      .where('id', '=', hook.id)
      .execute();
    await makeDue();
    await sender().flush();
    const list = await t.call('GET', '/config/fleet/webhooks', { token: tokens.installerA });
    const listed = (
      list.body as { webhooks: { id: string; disabledAt: string | null; disabledReason: string }[] }
    ).webhooks.find((w) => w.id === hook.id);
    expect(listed?.disabledAt).not.toBeNull();
    expect(listed?.disabledReason).toContain('failed for 24 hours');
    await t.server.ctx.mailer.flush();
    const mail = t.mail.sent.find((m) => m.subject.includes('A webhook was disabled'));
    expect(mail?.to).toBe('installer@solarpros.example');
    expect(mail?.text).toContain(receiver.url('/dead'));
    // Disabled: new events are not sent to it; switched on again, it takes them.
    const before = receiver.of('/dead').length;
    await install(tokens.installerA, IDS.siteOfA);
    await sender().flush();
    expect(receiver.of('/dead')).toHaveLength(before);
    const on = await t.call('PUT', `/config/fleet/webhooks/${hook.id}`, {
      token: tokens.installerA,
      body: { disabled: false },
    });
    expect(on.body).toMatchObject({ disabledAt: null, failingSince: null });
  });

  it('lets a read key list webhooks but not create them; a write key creates them', async () => {
    const key = async (scope: string) =>
      (
        (
          await t.call('POST', '/config/fleet/api-keys', {
            token: tokens.installerA,
            body: { name: scope, scope },
          })
        ).body as { key: string }
      ).key;
    const read = await key('read');
    const write = await key('write');
    const body = { url: receiver.url('/keyed'), events: ['alarm.raised'] };
    const withKey = (k: string, method: string, b?: unknown) =>
      t.call(method, '/config/fleet/webhooks', { token: k, apiKey: null, ...(b ? { body: b } : {}) });
    expect((await withKey(read, 'GET')).status).toBe(200);
    expect((await withKey(read, 'POST', body)).status).toBe(403);
    expect((await withKey(write, 'POST', body)).status).toBe(201);
  });
});

describe('where webhooks may go', () => {
  it('classifies loopback, private, link-local and metadata addresses, and passes public ones', () => {
    expect(blockedKind('169.254.169.254')).toContain('link-local');
    expect(blockedKind('127.0.0.1')).toContain('loopback');
    expect(blockedKind('::ffff:10.1.2.3')).toContain('private');
    expect(blockedKind('::1')).toContain('loopback');
    expect(blockedKind('fd00:ec2::254')).toContain('private');
    expect(blockedKind('100.100.100.200')).toContain('shared');
    expect(blockedKind('93.184.215.14')).toBeUndefined();
    expect(blockedKind('2606:4700::1111')).toBeUndefined();
  });

  it('checks the address a connection is about to use, whatever the name resolved to when saved', async () => {
    const lookup = guardedLookup({ allowPrivate: false, httpsOnly: true }, async () => [
      { address: '169.254.169.254', family: 4 },
    ]);
    const error = await new Promise<Error | null>((resolve) =>
      lookup('rebound.example', {}, (e) => resolve(e)),
    );
    expect(error?.message).toContain('rebound.example resolves to 169.254.169.254');
  });

  it('refuses WEBHOOK_ALLOW_PRIVATE_TARGETS=1 with NODE_ENV=production', () => {
    expect(() =>
      parseEnv({
        NODE_ENV: 'production',
        API_KEY: 'k3y-of-our-own',
        LINK_KEY: 'fleet:s3cret-link',
        PUBLIC_APP_URL: 'https://fleet.example.com',
        FIRMWARE_PUBLIC_KEYS: generateKeyPairSync('ed25519')
          .publicKey.export({ type: 'spki', format: 'der' })
          .toString('base64'),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      }),
    ).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
  });

  describe('in production', () => {
    let p: TestServer;
    let token: string;
    beforeAll(async () => {
      p = await startTestServer({
        NODE_ENV: 'production',
        API_KEY: 'k3y-of-our-own',
        LINK_KEY: 'fleet:s3cret-link',
        PUBLIC_APP_URL: 'https://fleet.example.com',
        FIRMWARE_PUBLIC_KEYS: generateKeyPairSync('ed25519')
          .publicKey.export({ type: 'spki', format: 'der' })
          .toString('base64'),
      });
      token = (await p.login('installerA')).access_token;
    });
    afterAll(() => p?.close());

    it('refuses 169.254.x.x, loopback and plain http when saved', async () => {
      const cases: [string, string][] = [
        [
          'https://169.254.169.254/latest/meta-data',
          '169.254.169.254 is a link-local (cloud metadata) address',
        ],
        ['https://[::1]:8443/hook', '::1 is a loopback address'],
        ['https://localhost/hook', 'localhost resolves to'],
        ['http://example.com/hook', 'url must be an https:// address'],
      ];
      for (const [url, message] of cases) {
        const answer = await p.call('POST', '/config/fleet/webhooks', {
          token,
          apiKey: 'k3y-of-our-own',
          body: { url, events: ['alarm.raised'] },
        });
        expect(answer.status, url).toBe(400);
        expect((answer.body as { message: string }).message).toContain(message);
      }
    });

    it('refuses a private address again when a delivery connects', async () => {
      // An endpoint whose name now resolves to this machine (saved when it did not).
      const row = await p.server.ctx.db
        .insertInto('webhook_endpoints')
        .values({
          user_id: IDS.installerA,
          url: 'https://localhost:9/hook',
          events: ['alarm.raised'],
          secret_sealed: sealSecret(p.server.ctx.codeKey, `whsec_${Buffer.alloc(32, 1).toString('base64')}`),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const test = await p.call('POST', `/config/fleet/webhooks/${row.id}/test`, {
        token,
        apiKey: 'k3y-of-our-own',
      });
      expect(test.status).toBe(200);
      const deliveries = await p.call('GET', `/config/fleet/webhooks/${row.id}/deliveries`, {
        token,
        apiKey: 'k3y-of-our-own',
      });
      const [delivery] = (
        deliveries.body as { deliveries: { status: string; attempts: { error: string }[] }[] }
      ).deliveries;
      expect(delivery?.status).toBe('failed');
      expect(delivery?.attempts[0]?.error).toMatch(
        /localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
      );
    });
  });
});

/**
 * Two servers on one PostgreSQL share the outbox, as processes behind a balancer do: each event
 * is sent once, in order, whichever server wrote it and whichever sends it. Needs a real
 * PostgreSQL (`.ci/run` sets TEST_DATABASE_URL for the server suite); PGlite serves one process.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two servers on one outbox', () => {
  let database: Awaited<ReturnType<typeof durableDatabase>>;
  let servers: TestServer[] = [];

  beforeAll(async () => {
    database = await durableDatabase();
    // One configuration, as a deployment's processes share: the key that seals webhook secrets too.
    const env = { CODE_HMAC_KEY: randomBytes(32).toString('base64url') };
    servers = [await startTestServer(env, { database }), await startTestServer(env, { database })];
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await database?.drop();
  });

  it('sends each event once and in order, with both servers sending at the same time', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    // Each test server signs with keys of its own: a token for each.
    const tokens = new Map(
      await Promise.all(
        [a, b].map(async (server) => [server, (await server.login('installerA')).access_token] as const),
      ),
    );
    const answer = await a.call('POST', '/config/fleet/webhooks', {
      token: tokens.get(a),
      body: { url: receiver.url('/shared'), events: ['device.installed'], siteId: IDS.siteOfA },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const { secret } = answer.body as Created;
    const install = (via: TestServer, serial: string) =>
      via.call('POST', `/config/fleet/sites/${IDS.siteOfA}/installs`, {
        token: tokens.get(via),
        body: { serial, modelId: 'HX-5000' },
      });
    // The receiver holds its first answer: while server a is sending, server b's sender finds
    // that delivery leased to a, and sends nothing.
    let answerFirst = () => {};
    receiver.holds.set(
      '/shared',
      new Promise<void>((resolve) => {
        answerFirst = resolve;
      }),
    );
    const first = 'HX5K-26-009599';
    expect((await install(a, first)).status).toBe(201);
    const sendingFirst = a.server.ctx.webhooks.sender.flush();
    await vi.waitFor(() => expect(receiver.of('/shared')).toHaveLength(1), { timeout: 10_000 });
    await b.server.ctx.webhooks.sender.flush();
    expect(receiver.of('/shared')).toHaveLength(1);
    answerFirst();
    await sendingFirst;
    // Installs through either server; each wakes its own sender as it commits.
    const serials: string[] = [first];
    for (let n = 0; n < 12; n += 1) {
      const serial = `HX5K-26-0095${String(n).padStart(2, '0')}`;
      const made = await install(n % 2 === 0 ? a : b, serial);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      serials.push(serial);
    }
    await Promise.all([a, b].map((server) => server.server.ctx.webhooks.sender.flush()));
    // A pass ends when it finds nothing it may claim: one more of each sends anything the other held.
    await Promise.all([a, b].map((server) => server.server.ctx.webhooks.sender.flush()));
    const got = receiver.of('/shared');
    const ids = got.map((request) => request.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(verified('/shared', secret).map((event) => event.data.serial)).toEqual(serials);
  });
});
