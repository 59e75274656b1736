import { type KeyObject, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { generateSigningKey } from '../../server/auth/signing-keys.ts';
import { createServer, type FleetServer } from '../../server/create-server.ts';
import type { DatabaseTarget } from '../../server/db/database.ts';
import { parseEnv } from '../../server/env.ts';
import type { RolloutTimers } from '../../server/firmware/rollout-engine.ts';
import { listen } from '../../server/http/listen.ts';
import type { MailTransport, OutgoingMail } from '../../server/mail/transports.ts';
import { migratedStart } from './migrated-database.ts';
import { type TestClock, testClock } from './test-clock.ts';

/** Seeded ids (see server/db/seed.ts): admin, installer A, owner (of A's sites 1–3), installer B. */
export const IDS = {
  admin: 1,
  installerA: 2,
  owner: 3,
  installerB: 4,
  siteOfA: 5,
  siteOfOwner: 1,
  siteOfB: 100,
};
export const PASSWORDS = {
  admin: ['admin@fleet.example', 'FleetAdmin#2026'],
  installerA: ['installer@solarpros.example', 'Installer#2026'],
  owner: ['owner@homeowner.example', 'Owner#2026'],
  installerB: ['installer@brightvolt.example', 'Installer#2026'],
} as const;
export type Who = keyof typeof PASSWORDS;

/** Mail delivered by the outbox worker, in order; `failing` makes every delivery fail (an outage). */
export interface MailBox extends MailTransport {
  sent: OutgoingMail[];
  failing: boolean;
}

export function mailBox(): MailBox {
  const box: MailBox = {
    sent: [],
    failing: false,
    async send(mail) {
      if (box.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      box.sent.push(mail);
    },
  };
  return box;
}

export interface TestServer {
  server: FleetServer;
  /** What the server's outbox worker delivered. */
  mail: MailBox;
  /** The server's clock (`ctx.now`): the real time until the test pins it. */
  clock: TestClock;
  /** Deliver the queued mail, then answer the newest one-time code mailed to `email`. */
  codeFor(email: string): Promise<string>;
  /** `http://127.0.0.1:<port>` of the listening server. */
  origin: string;
  /** Call the server over HTTP; JSON bodies are serialised; `api-key` is sent unless `apiKey: null`. */
  call(
    method: string,
    path: string,
    options?: {
      token?: string;
      body?: unknown;
      headers?: Record<string, string>;
      apiKey?: string | null;
      ip?: string;
    },
  ): Promise<{ status: number; body: unknown; headers: Headers }>;
  /** Sign in on the configuration service; answers the token pair. */
  login(who: Who): Promise<{ access_token: string; refresh_token: string }>;
  close(): Promise<void>;
}

/**
 * A database of the caller's own: PGlite in memory, or a new database on TEST_DATABASE_URL. In
 * PGlite it starts from the run's migrated database where there is one (see migrated-database.ts),
 * unless `empty` (a test of the migrations themselves).
 */
export async function freshDatabase(options: { empty?: boolean } = {}): Promise<{
  target: DatabaseTarget;
  drop: () => Promise<void>;
}> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const from = options.empty ? undefined : migratedStart();
    return { target: { pgliteDir: 'memory://', ...(from ? { from } : {}) }, drop: async () => {} };
  }
  // One database per test file, so files run in parallel on one cluster.
  const name = `fleet_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    target: { url: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A database that outlives one server, for a test that restarts the server on it: a new database
 * on TEST_DATABASE_URL, else PGlite in a folder of its own. `drop` removes it.
 */
export async function durableDatabase(): Promise<Awaited<ReturnType<typeof freshDatabase>>> {
  if (process.env.TEST_DATABASE_URL) return freshDatabase();
  const dir = await mkdtemp(join(tmpdir(), 'fleet-db-'));
  return { target: { pgliteDir: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A seeded server on its own database (PGlite in memory, or a new database on TEST_DATABASE_URL).
 * It looks for silent devices only when a test calls the sweep with its own clock (`watchSilence`
 * turns the clock's sweep on).
 */
export async function startTestServer(
  envOverrides: Record<string, string> = {},
  options: {
    watchSilence?: boolean;
    /** A database of the test's own (`durableDatabase()`), kept when the server closes. */
    database?: Awaited<ReturnType<typeof freshDatabase>>;
    /** The firmware signing key (a restarted server trusts the same images). */
    firmwareKey?: KeyObject;
    rolloutTimers?: Partial<RolloutTimers>;
  } = {},
): Promise<TestServer> {
  const env = parseEnv({ DATA_DIR: '.tmp/test-data', TRUST_PROXY: '1', ...envOverrides });
  const { target, drop } = options.database
    ? { target: options.database.target, drop: async () => {} }
    : await freshDatabase();
  const keys = {
    config: (await generateSigningKey()).key,
    monitoring: (await generateSigningKey()).key,
    ...(options.firmwareKey ? { firmware: options.firmwareKey } : {}),
  };
  const mail = mailBox();
  const clock = testClock();
  const server = await createServer({
    env,
    now: clock.now,
    alarm: clock.alarm,
    database: target,
    keys,
    scryptCost: { N: 1024, r: 8, p: 1 },
    seed: true,
    seedHistory: false,
    watchSilence: options.watchSilence ?? false,
    ...(options.rolloutTimers ? { rolloutTimers: options.rolloutTimers } : {}),
    // With SMTP_URL the test runs the real SMTP transport.
    ...(env.SMTP_URL ? {} : { mailTransport: mail }),
  });
  // Calls go over a real socket through @hono/node-server, as a browser's would.
  const listener = listen(server.app.fetch, { hostname: '127.0.0.1', port: 0 }, env);
  await new Promise((resolve) => listener.once('listening', resolve));
  // Devices connect over a WebSocket on the same port, as in `npm start`.
  server.ctx.comms.attach(listener);
  const address = listener.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const call: TestServer['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.apiKey !== null) headers['api-key'] = options.apiKey ?? env.API_KEY;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    headers['x-forwarded-for'] = options.ip ?? '203.0.113.7';
    const init: RequestInit = { method, headers };
    if (options.body !== undefined)
      init.body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const response = await fetch(`${origin}${path}`, init);
    // A live stream never ends by itself: its status and headers are the answer.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, body: null, headers: response.headers };
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body, headers: response.headers };
  };
  const login: TestServer['login'] = async (who) => {
    const [main_email, password] = PASSWORDS[who];
    const answer = await call('POST', '/config/auth/v2/login', {
      body: { main_email, password },
      ip: `198.51.100.${who.length}`,
    });
    if (answer.status !== 200)
      throw new Error(`login ${who}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { access_token: string; refresh_token: string };
  };
  const codeFor: TestServer['codeFor'] = async (email) => {
    await server.ctx.mailer.flush();
    const code = mail.sent.filter((sent) => sent.to === email && sent.code).at(-1)?.code;
    if (!code) throw new Error(`no code mailed to ${email}`);
    return code;
  };
  return {
    server,
    origin,
    mail,
    clock,
    codeFor,
    call,
    login,
    close: async () => {
      await new Promise((resolve) => listener.close(resolve));
      await server.close();
      await drop();
    },
  };
}
