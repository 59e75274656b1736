import { createFetch } from 'ofetch';
import { devicePageSchema } from '../../contracts/devices.ts';
import { type AccessToken, asAccessToken } from '../../machines/auth/tokens.ts';
import { claimCodeHash } from '../../server/commissioning/claim-codes.ts';
import { type ApiClient, createApiClient } from '../../src/api/api-client.ts';
import { claimDevice } from '../../src/api/commissioning-api.ts';
import type { TokenSession } from '../../src/api/token-session.ts';
import { IDS, startTestServer, type TestServer, type Who } from '../server/harness.ts';
import type { PendingCall } from './fakes.ts';

/**
 * The configuration service in process (the seeded test server over a real socket), reached as
 * the app reaches it: through the app's own API client and commissioning calls, signed in as the
 * installer of sites 5 and 6. `offline` takes the installer out of signal: every call then fails
 * as a browser's fetch does with no network.
 */
export interface CommissioningService {
  t: TestServer;
  /** Installer A's client of the configuration service. */
  api: ApiClient;
  /** Another person's client (installer B, of site 100), for what happens elsewhere. */
  as(who: Who): Promise<ApiClient>;
  network: { online: boolean };
  /** A serial of the given prefix no path has used in this server: `HX5K-29-000001`, … */
  freshSerial(prefix: string): string;
  /**
   * A new unit's label: a serial of the given prefix no path has used, registered (as a
   * manufacturing list registers it) with the claim code answered, as printed.
   */
  freshLabel(prefix: string): Promise<{ serial: string; claimCode: string }>;
  /** A serial installed at installer B's site, which installer A cannot see. */
  serialOfOtherInstaller: string;
  /** A unit installer B's company claimed for its site, with {@link LABEL_CODE}. */
  claimedByOtherCompany: string;
}

/** The claim code every label of these paths carries (each serial's own all the same). */
export const LABEL_CODE = 'K7M2-Q9XD-4TRW-8HNB';

let started: Promise<CommissioningService> | null = null;

/** The service, started on first use and shared by every path of this process. */
export function commissioningService(): Promise<CommissioningService> {
  started ??= start();
  return started;
}

/** Starts the service (if no path has yet), for a test's set-up. */
export async function startCommissioningService(): Promise<void> {
  await commissioningService();
}

/** Ends the service when one was started. */
export async function closeCommissioningService(): Promise<void> {
  if (!started) return;
  const service = await started;
  started = null;
  await service.t.close();
}

async function start(): Promise<CommissioningService> {
  const t = await startTestServer();
  const network = { online: true };
  const fetcher = createFetch({
    fetch: (input, init) =>
      network.online ? globalThis.fetch(input, init) : Promise.reject(new TypeError('fetch failed')),
  });
  const clientOf = async (who: Who): Promise<ApiClient> => {
    let token: AccessToken = asAccessToken((await t.login(who)).access_token);
    const session: TokenSession = {
      getAccessToken: () => token,
      // A long run outlives an access token: sign in again, as a refresh would give a new one.
      refresh: async () => {
        token = asAccessToken((await t.login(who)).access_token);
        return token;
      },
    };
    const base = `${t.origin}/config`;
    return createApiClient({
      service: 'config',
      baseURL: base,
      configBaseURL: base,
      apiKey: t.server.ctx.env.API_KEY,
      session,
      fetcher,
      log: () => {},
    });
  };
  const api = await clientOf('installerA');
  const others = new Map<Who, Promise<ApiClient>>();
  const as = (who: Who) => {
    let client = others.get(who);
    if (!client) {
      client = clientOf(who);
      others.set(who, client);
    }
    return client;
  };
  const siteB = devicePageSchema.parse(
    await (await as('installerB'))(`/fleet/sites/installs/${IDS.siteOfB}`),
  );
  const serialOfOtherInstaller = siteB.items[0]?.serial;
  if (!serialOfOtherInstaller) throw new Error(`site ${IDS.siteOfB} has no device`);
  let next = 0;
  const freshSerial = (prefix: string) => {
    next += 1;
    return `${prefix}-29-${String(next).padStart(6, '0')}`;
  };
  const register = (serial: string) =>
    t.server.ctx.db
      .insertInto('device_registrations')
      .values({ serial, model_id: modelOfPrefix(serial), claim_code_hash: claimCodeHash(LABEL_CODE) })
      .execute();
  const claimedByOtherCompany = freshSerial('HX5K');
  await register(claimedByOtherCompany);
  await claimDevice(await as('installerB'), IDS.siteOfB, {
    serial: claimedByOtherCompany,
    claimCode: LABEL_CODE,
  });
  return {
    t,
    api,
    as,
    network,
    freshSerial,
    freshLabel: async (prefix) => {
      const serial = freshSerial(prefix);
      await register(serial);
      return { serial, claimCode: LABEL_CODE };
    },
    serialOfOtherInstaller,
    claimedByOtherCompany,
  };
}

/** The seeded models, by their serial prefix. */
function modelOfPrefix(serial: string): string {
  const models: Record<string, string> = { HX5K: 'HX-5000', BX10: 'BX-10', E140: 'E1-40' };
  const model = models[serial.split('-')[0] ?? ''];
  if (!model) throw new Error(`no seeded model has the serial prefix of ${serial}`);
  return model;
}

/**
 * Lets a call the machine made (held by a {@link controlledActor}) go to the service now: the
 * service's answer, or its refusal, is handed to the machine. Resolves once the machine took it.
 */
export async function letGo<TOut, TIn>(
  call: PendingCall<TOut, TIn>,
  send: (input: TIn) => Promise<TOut>,
): Promise<void> {
  let answer: { value: TOut } | { error: unknown };
  try {
    answer = { value: await send(call.input) };
  } catch (error) {
    answer = { error };
  }
  await ('value' in answer ? call.resolve(answer.value) : call.reject(answer.error));
}
