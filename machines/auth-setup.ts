import { assign, fromPromise, raise, setup } from 'xstate';
import type { TokenPair } from '../contracts/auth.ts';
import { clearRefreshTokens, clearStoredSession, persistSession } from './auth-storage.ts';
import type { Service } from './storage-keys.ts';
import { type AccessToken, asAccessToken, asRefreshToken, type RefreshToken } from './tokens.ts';

/** What the machine knows about one service. Access tokens live here only, never in storage. */
export interface ServiceSession {
  accessToken: AccessToken | null;
  refreshToken: RefreshToken | null;
  /** The service accepted us: a login or a refresh succeeded and nothing failed since. */
  good: boolean;
  /** Message of the last failed refresh, e.g. `No refresh token available`. */
  refreshError: string | null;
}

export interface AuthContext {
  storage: Storage;
  email: string | null;
  config: ServiceSession;
  monitoring: ServiceSession;
  loginError: string | null;
}

export interface AuthInput {
  /** Where refresh tokens and the current e-mail are kept (`localStorage` in the browser). */
  storage: Storage;
}

export type AuthEvent =
  | { type: 'auth.login'; email: string; password: string }
  | { type: 'auth.logout' }
  | { type: 'auth.refresh'; service: Service }
  /** Raised by the machine when a refresh fails, so the other service's refresh stops too. */
  | { type: 'auth.sessionLost' };

/** The message of a refresh asked for while no refresh token is stored (specification §5). */
export const NO_REFRESH_TOKEN = 'No refresh token available';
/** Shown when a refresh fails without a message from the server. */
export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';
/** Shown when a sign-in fails without a message from the server. */
export const GENERIC_LOGIN_ERROR = 'Sign-in failed. Please try again.';

export const emptySession = (refreshToken: RefreshToken | null): ServiceSession => ({
  accessToken: null,
  refreshToken,
  good: false,
  refreshError: null,
});

export const messageOf = (error: unknown, fallback: string): string =>
  error instanceof Error && error.message ? error.message : fallback;

/** Placeholder for an I/O actor: the app and the tests provide the real one with `machine.provide`. */
const missingActor = <TInput>(name: string) =>
  fromPromise<TokenPair, TInput>(async () => {
    throw new Error(`The ${name} actor is not provided`);
  });

type ServiceParams = { service: Service };

/**
 * Types, actors, actions and guards of the auth machine, by name. The machine itself is in
 * `auth-machine.ts`, one service's region in `auth-service-region.ts`.
 */
export const authSetup = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
  },
  actors: {
    configLogin: missingActor<{ email: string; password: string }>('configLogin'),
    monitoringLogin: missingActor<{ email: string; accessToken: AccessToken }>('monitoringLogin'),
    refreshTokens: missingActor<{ service: Service; refreshToken: RefreshToken }>('refreshTokens'),
  },
  actions: {
    /** Injected by the app: `navigate('/login', { replace })`. */
    navigateToLogin: (_, _params: { replace: boolean }) => {},
    startSignIn: assign(({ event }) => ({
      email: event.type === 'auth.login' ? event.email.trim() : null,
      loginError: null,
    })),
    storeTokens: assign((_, { service, pair }: { service: Service; pair: TokenPair }) => {
      const next: ServiceSession = {
        accessToken: asAccessToken(pair.access_token),
        refreshToken: asRefreshToken(pair.refresh_token),
        good: true,
        refreshError: null,
      };
      return service === 'config' ? { config: next } : { monitoring: next };
    }),
    persistSession: ({ context }) => persistSession(context.storage, context),
    signInFailed: assign((_, { error }: { error: unknown }) => ({
      config: emptySession(null),
      monitoring: emptySession(null),
      loginError: messageOf(error, GENERIC_LOGIN_ERROR),
    })),
    // Both services carry the reason: a caller waiting on the other service learns why it ended.
    refreshFailed: assign((_, { message }: { service: Service; message: string }) => ({
      config: { ...emptySession(null), refreshError: message },
      monitoring: { ...emptySession(null), refreshError: message },
    })),
    forgetRefreshTokens: ({ context }) => clearRefreshTokens(context.storage),
    clearSession: assign({
      email: null,
      loginError: null,
      config: emptySession(null),
      monitoring: emptySession(null),
    }),
    clearStoredSession: ({ context }) => clearStoredSession(context.storage),
    announceSessionLost: raise({ type: 'auth.sessionLost' }),
  },
  guards: {
    hasRefreshToken: ({ context }, { service }: ServiceParams) => context[service].refreshToken !== null,
    isRefreshOf: ({ event }, { service }: ServiceParams) =>
      event.type === 'auth.refresh' && event.service === service,
    canRefresh: ({ context, event }, { service }: ServiceParams) =>
      event.type === 'auth.refresh' && event.service === service && context[service].refreshToken !== null,
  },
});
