import { type AnyActorLogic, createActor } from 'xstate';
import type { TokenPair } from '../../contracts/auth.ts';
import { authMachine } from '../../machines/auth/auth-machine.ts';
import type { EndSessionInput, LoginNavigation } from '../../machines/auth/auth-types.ts';
import type { AccessToken, RefreshToken } from '../../machines/auth/tokens.ts';
import { refreshTokenKey, type Service, STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { createTabChannel, type TabChannelOptions } from '../../src/features/auth/tab-channel.ts';
import { createRefreshLock, type LockManagerLike } from '../../src/features/auth/tab-lock.ts';
import type { FakeChannelHub } from './auth-tab-fakes.ts';
import { controlledActor, MemoryStorage } from './fakes.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';

export interface AuthHarnessOptions {
  /** Refresh tokens stored before the app starts. */
  stored?: Partial<Record<Service, string>>;
  email?: string;
  /** Storage shared with other tabs; a fresh one by default. */
  storage?: MemoryStorage;
  /** The browser's Web Locks; none by default (one tab: the lock is granted at once). */
  locks?: LockManagerLike;
  /** The tabs' BroadcastChannels; none by default. */
  hub?: FakeChannelHub;
  /** Other channel options (e.g. `storage` events only); used when there is no `hub`. */
  channel?: TabChannelOptions;
  /** Answers refreshes itself (e.g. `rotatingTokenServer`); hand-answered by default. */
  refreshTokens?: AnyActorLogic;
}

/** The real auth machine over hand-answered actors, a memory storage and a navigation log. */
export function startAuth(options: AuthHarnessOptions = {}) {
  const storage = options.storage ?? new MemoryStorage();
  for (const [service, token] of Object.entries(options.stored ?? {})) {
    storage.setItem(refreshTokenKey(service as Service), token);
  }
  if (options.email) storage.setItem(STORAGE_KEYS.currentEmail, options.email);
  const configLogin = controlledActor<TokenPair, { email: string; password: string }>();
  const monitoringLogin = controlledActor<TokenPair, { email: string; accessToken: AccessToken }>();
  const refresh = controlledActor<TokenPair, { service: Service; refreshToken: RefreshToken }>();
  const endSession = controlledActor<void, EndSessionInput>();
  const navigations: Array<{ to: string } & LoginNavigation> = [];
  const machine = authMachine.provide({
    actors: {
      configLogin: configLogin.logic,
      monitoringLogin: monitoringLogin.logic,
      refreshTokens: (options.refreshTokens ?? refresh.logic) as typeof refresh.logic,
      refreshLock: createRefreshLock(options.locks),
      tabChannel: createTabChannel(options.hub ? { open: options.hub.opener } : (options.channel ?? {})),
      endServerSession: endSession.logic,
    },
    actions: {
      navigateToLogin: (_, { replace, resume }) => navigations.push({ to: '/login', replace, resume }),
    },
  });
  const actor = createActor(machine, { input: { storage }, inspect: recordCoverage }).start();
  const refreshesOf = (service: Service) => refresh.calls.filter((c) => c.input.service === service);
  return { actor, storage, configLogin, monitoringLogin, refresh, refreshesOf, endSession, navigations };
}

export type AuthHarness = ReturnType<typeof startAuth>;

export const pair = (access: string, refresh: string): TokenPair => ({
  access_token: access,
  refresh_token: refresh,
});
