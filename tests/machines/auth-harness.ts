import { createActor } from 'xstate';
import type { TokenPair } from '../../contracts/auth.ts';
import { authMachine } from '../../machines/auth-machine.ts';
import { refreshTokenKey, type Service, STORAGE_KEYS } from '../../machines/storage-keys.ts';
import type { AccessToken, RefreshToken } from '../../machines/tokens.ts';
import { controlledActor, MemoryStorage } from './fakes.ts';

export interface AuthHarnessOptions {
  /** Refresh tokens stored before the app starts. */
  stored?: Partial<Record<Service, string>>;
  email?: string;
}

/** The real auth machine over hand-answered actors, a memory storage and a navigation log. */
export function startAuth(options: AuthHarnessOptions = {}) {
  const storage = new MemoryStorage();
  for (const [service, token] of Object.entries(options.stored ?? {})) {
    storage.setItem(refreshTokenKey(service as Service), token);
  }
  if (options.email) storage.setItem(STORAGE_KEYS.currentEmail, options.email);
  const configLogin = controlledActor<TokenPair, { email: string; password: string }>();
  const monitoringLogin = controlledActor<TokenPair, { email: string; accessToken: AccessToken }>();
  const refresh = controlledActor<TokenPair, { service: Service; refreshToken: RefreshToken }>();
  const navigations: Array<{ to: string; replace: boolean }> = [];
  const machine = authMachine.provide({
    actors: {
      configLogin: configLogin.logic,
      monitoringLogin: monitoringLogin.logic,
      refreshTokens: refresh.logic,
    },
    actions: { navigateToLogin: (_, { replace }) => navigations.push({ to: '/login', replace }) },
  });
  const actor = createActor(machine, { input: { storage } }).start();
  const refreshesOf = (service: Service) => refresh.calls.filter((c) => c.input.service === service);
  return { actor, storage, configLogin, monitoringLogin, refresh, refreshesOf, navigations };
}

export type AuthHarness = ReturnType<typeof startAuth>;

export const pair = (access: string, refresh: string): TokenPair => ({
  access_token: access,
  refresh_token: refresh,
});
