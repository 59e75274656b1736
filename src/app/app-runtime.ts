import { createFetch } from 'ofetch';
import { type ActorOptions, type ActorRefFrom, type AnyActorLogic, createActor, fromPromise } from 'xstate';
import type { AppConfig } from '../../contracts/app-config.ts';
import { authMachine } from '../../machines/auth/auth-machine.ts';
import { passwordResetMachine } from '../../machines/auth/password-reset-machine.ts';
import { catalogueMachine } from '../../machines/catalogue/catalogue-machine.ts';
import { askToLeave, unsavedWorkMachine } from '../../machines/unsaved-work/unsaved-work-machine.ts';
import { type ApiClient, createApiClient } from '../api/api-client.ts';
import type { ApiError } from '../api/api-error.ts';
import { createTokenSession, type TokenSession } from '../api/token-session.ts';
import { createAuthActors } from '../features/auth/auth-actors.ts';
import { codeStepMemory, createPasswordResetActors } from '../features/auth/password-reset-actors.ts';
import { browserTabChannel, createTabChannel, type TabChannelOptions } from '../features/auth/tab-channel.ts';
import { browserLocks, createRefreshLock, type LockManagerLike } from '../features/auth/tab-lock.ts';
import { createCatalogueActors } from '../features/catalogue/catalogue-actors.ts';

export type { ApiClient } from '../api/api-client.ts';

/** What sets and clears the machines' timers (xstate's own clock, or its `SimulatedClock`). */
export type MachineClock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

/** Everything the views use: the running machines and one API client per service. */
export interface AppRuntime {
  config: AppConfig;
  auth: ActorRefFrom<typeof authMachine>;
  catalogue: ActorRefFrom<typeof catalogueMachine>;
  passwordReset: ActorRefFrom<typeof passwordResetMachine>;
  /** The one leave guard: forms and the Bluetooth session report unsaved work into it. */
  unsavedWork: ActorRefFrom<typeof unsavedWorkMachine>;
  configApi: ApiClient;
  monitoringApi: ApiClient;
  /** The access tokens in memory and their refresh, for calls the API clients do not make (a live stream). */
  session: TokenSession;
}

export interface AppRuntimeDeps {
  /**
   * Late-bound navigation: the UI passes a function that calls `router.navigate`. With `resume`,
   * the page being left is kept as the one to return to after sign-in. The machines' navigations
   * are decided already (a session that ended, a refresh the person agreed to), so they pass the
   * router's leave guard.
   */
  navigate: (to: string, options: { replace: boolean; resume?: boolean }) => void;
  /** `window.localStorage` by default. */
  storage?: Storage;
  /** `window.sessionStorage` by default (null: nothing is kept across a reload). */
  sessionStorage?: Storage | null;
  /** `globalThis.fetch` by default. */
  fetch?: typeof fetch;
  /** The cross-tab refresh lock; `navigator.locks` by default (none: the refresh goes on at once). */
  locks?: LockManagerLike;
  /** How tabs talk; a `BroadcastChannel` by default, else `storage` events. */
  tabChannel?: TabChannelOptions;
  /** Prefix of the bundled JSON files; empty (same origin as the app) by default. */
  assetBaseUrl?: string;
  /** Where failed calls and a failed catalogue download are logged; `console.error` by default. */
  log?: (message: string, error?: ApiError) => void;
  /** Timers of the catalogue cooldown; the real clock by default, a simulated one in tests. */
  clock?: MachineClock;
}

/**
 * Starts the app's machines over real I/O. The auth machine begins by refreshing any stored
 * refresh tokens; the catalogue begins loading at once.
 *
 * @example
 * const runtime = createAppRuntime(config, { navigate: (to, o) => router.navigate({ href: to, replace: o.replace }) });
 */
export function createAppRuntime(config: AppConfig, deps: AppRuntimeDeps): AppRuntime {
  const storage = deps.storage ?? window.localStorage;
  const log = deps.log ?? ((message: string, error?: ApiError) => console.error(message, error ?? ''));
  const fetchImpl = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const fetcher = createFetch({ fetch: fetchImpl });

  const auth = createActor(
    authMachine.provide({
      actors: {
        ...createAuthActors(config, fetcher),
        refreshLock: createRefreshLock(deps.locks ?? browserLocks()),
        tabChannel: createTabChannel(deps.tabChannel ?? browserTabChannel()),
      },
      actions: { navigateToLogin: (_, { replace, resume }) => deps.navigate('/login', { replace, resume }) },
    }),
    { input: { storage } },
  ).start();

  const session = createTokenSession(auth);
  const common = { configBaseURL: config.configUrl, apiKey: config.apiKey, session, fetcher, log };
  const configApi = createApiClient({ ...common, service: 'config', baseURL: config.configUrl });
  const monitoringApi = createApiClient({ ...common, service: 'monitoring', baseURL: config.monitoringUrl });

  const unsavedWork = createActor(unsavedWorkMachine).start();

  const catalogue = createActor(
    catalogueMachine.provide({
      actors: {
        ...createCatalogueActors(config, fetchImpl, deps.assetBaseUrl),
        // The refresh goes to landing (specification §2) only once the person agreed to leave.
        leaveForLanding: fromPromise(async () => {
          if (!(await askToLeave(unsavedWork))) return false;
          deps.navigate('/landing', { replace: false });
          return true;
        }),
      },
      actions: { logDownloadError: (_, { message }) => log(message) },
    }),
    { input: { storage }, ...(deps.clock ? { clock: deps.clock } : {}) },
  ).start();

  const codeStep = codeStepMemory(
    deps.sessionStorage === undefined ? (globalThis.sessionStorage ?? null) : deps.sessionStorage,
  );
  const passwordReset = createActor(
    passwordResetMachine.provide({
      actors: createPasswordResetActors(configApi, auth),
      actions: { rememberCodeStep: (_, { email }) => codeStep.remember(email) },
    }),
  ).start();
  // "Choose your password" was open when the page went away (a reload, the mail app): open it again.
  const openStep = codeStep.remembered();
  if (openStep !== null) passwordReset.send({ type: 'reset.haveCode', email: openStep });

  return { config, auth, catalogue, passwordReset, unsavedWork, configApi, monitoringApi, session };
}
