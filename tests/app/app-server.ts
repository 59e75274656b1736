import type { AppConfig } from '../../contracts/app-config.ts';
import { generateSigningKey } from '../../server/auth/signing-keys.ts';
import { createServer, type FleetServer } from '../../server/create-server.ts';
import { parseEnv } from '../../server/env.ts';
import { mailBox } from '../server/harness.ts';
import { migratedStart } from '../server/migrated-database.ts';

/** The demo sign-ins the real server seeds (server/db/seed.ts). */
export const USERS = {
  admin: { email: 'admin@fleet.example', password: 'FleetAdmin#2026', name: 'Fleet Admin' },
  installer: { email: 'installer@solarpros.example', password: 'Installer#2026', name: 'Sam Solarpros' },
  owner: { email: 'owner@homeowner.example', password: 'Owner#2026', name: 'Olivia Homeowner' },
} as const;

/** One request the app made, with the status the server answered. */
export interface Call {
  method: string;
  path: string;
  headers: Headers;
  status: number;
}

/** Lets a test make one path answer something else than the server would (a service that is down). */
export type Override = (method: string, path: string) => Response | Promise<Response> | 'refused' | undefined;

const ORIGIN = 'http://app.test';

/**
 * The real server (both services and the bundled lists) on a throwaway in-memory PGlite, seeded
 * with the demo users, answering through `app.request` in process. `fetch` is what the app's
 * runtime is given, so the app's HTTP layer and the services meet exactly as in production.
 */
export async function startAppServer() {
  // Sign-ins from every test of a file count against one account's limit: lift it for tests.
  const env = parseEnv({
    DATA_DIR: '.tmp/app-test-data',
    LOGIN_LIMIT_PER_ACCOUNT: '1000',
    LOGIN_LIMIT_PER_ADDRESS: '1000',
  });
  const keys = { config: (await generateSigningKey()).key, monitoring: (await generateSigningKey()).key };
  const mail = mailBox();
  const server: FleetServer = await createServer({
    mailTransport: mail,
    env,
    database: { pgliteDir: 'memory://', from: migratedStart() },
    keys,
    scryptCost: { N: 1024, r: 8, p: 1 },
    // The bundled lists are served beside the app, as from `dist/` in production.
    distDir: 'public',
  });
  const calls: Call[] = [];
  let override: Override | undefined;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = input instanceof Request ? input : null;
    const url = new URL(request ? request.url : String(input), ORIGIN);
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers ?? request?.headers);
    const body = init?.body ?? (request ? await request.text() : undefined);
    const replaced = override?.(method, url.pathname);
    if (replaced === 'refused') {
      calls.push({ method, path: url.pathname, headers, status: 0 });
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1') });
    }
    const response =
      (await replaced) ??
      (await server.app.request(`${url.pathname}${url.search}`, {
        method,
        headers,
        ...(body === undefined || body === null ? {} : { body: body as BodyInit }),
      }));
    calls.push({ method, path: url.pathname, headers, status: response.status });
    return response;
  };
  /** The latest access code the server mailed to `email` (delivered by the outbox worker). */
  const mailedCode = async (email: string): Promise<string> => {
    await server.ctx.mailer.flush();
    const code = mail.sent.filter((sent) => sent.to === email && sent.code).at(-1)?.code;
    if (!code) throw new Error(`no code mailed to ${email}`);
    return code;
  };
  const config: AppConfig = {
    configUrl: '/config',
    monitoringUrl: '/monitoring',
    devicesListUrl: '/config/devices-list',
    apiKey: env.API_KEY,
    linkKey: env.LINK_KEY,
    companyDomain: env.COMPANY_DOMAIN,
    mapsApiKey: null,
  };
  return {
    server,
    config,
    fetch,
    calls,
    mailedCode,
    /** Answer matching requests differently until `override(undefined)`. */
    override: (next: Override | undefined) => {
      override = next;
    },
    close: () => server.close(),
  };
}

export type AppServer = Awaited<ReturnType<typeof startAppServer>>;
