import { and, assign, fromPromise, raise, setup, stateIn } from 'xstate';
import type { TokenPair } from '../contracts/auth.ts';
import { clearRefreshTokens, clearStoredSession, persistSession, readStoredSession } from './auth-storage.ts';
import type { Service } from './storage-keys.ts';

/** What the machine knows about one service. Access tokens live here only, never in storage. */
export interface ServiceSession {
  accessToken: string | null;
  refreshToken: string | null;
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

const emptySession = (refreshToken: string | null): ServiceSession => ({
  accessToken: null,
  refreshToken,
  good: false,
  refreshError: null,
});

const messageOf = (error: unknown, fallback: string): string =>
  error instanceof Error && error.message ? error.message : fallback;

/** Placeholder for an I/O actor: the app and the tests provide the real one with `machine.provide`. */
const missingActor = <TInput>(name: string) =>
  fromPromise<TokenPair, TInput>(async () => {
    throw new Error(`The ${name} actor is not provided`);
  });

type ServiceParams = { service: Service };

const authSetup = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
  },
  actors: {
    configLogin: missingActor<{ email: string; password: string }>('configLogin'),
    monitoringLogin: missingActor<{ email: string; accessToken: string }>('monitoringLogin'),
    refreshTokens: missingActor<{ service: Service; refreshToken: string }>('refreshTokens'),
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
        accessToken: pair.access_token,
        refreshToken: pair.refresh_token,
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
    refreshFailed: assign(({ context }, { service, message }: { service: Service; message: string }) => ({
      config: {
        ...emptySession(null),
        refreshError: service === 'config' ? message : context.config.refreshError,
      },
      monitoring: {
        ...emptySession(null),
        refreshError: service === 'monitoring' ? message : context.monitoring.refreshError,
      },
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

/**
 * One service's region: `boot` refreshes a stored token at start; `idle` starts a refresh on
 * `auth.refresh` for this service; `refreshing` ignores further `auth.refresh` (coalescing).
 */
function serviceRegion(service: Service) {
  return authSetup.createStateConfig({
    initial: 'boot',
    states: {
      boot: {
        always: [
          { guard: { type: 'hasRefreshToken', params: { service } }, target: 'refreshing' },
          { target: 'idle' },
        ],
      },
      idle: {
        on: {
          'auth.refresh': [
            {
              guard: { type: 'canRefresh', params: { service } },
              target: 'refreshing',
            },
            {
              guard: { type: 'isRefreshOf', params: { service } },
              actions: [
                { type: 'refreshFailed', params: { service, message: NO_REFRESH_TOKEN } },
                'forgetRefreshTokens',
                'announceSessionLost',
                { type: 'navigateToLogin', params: { replace: true } },
              ],
            },
          ],
        },
      },
      refreshing: {
        invoke: {
          src: 'refreshTokens',
          input: ({ context }) => ({
            service,
            refreshToken: context[service].refreshToken ?? '',
          }),
          onDone: {
            target: 'idle',
            actions: [
              { type: 'storeTokens', params: ({ event }) => ({ service, pair: event.output }) },
              'persistSession',
            ],
          },
          onError: {
            target: 'idle',
            actions: [
              {
                type: 'refreshFailed',
                params: ({ event }) => ({
                  service,
                  message: messageOf(event.error, SESSION_EXPIRED),
                }),
              },
              'forgetRefreshTokens',
              'announceSessionLost',
              { type: 'navigateToLogin', params: { replace: true } },
            ],
          },
        },
        // The other service's refresh failed: the session is over, this answer no longer matters.
        on: { 'auth.sessionLost': 'idle' },
      },
    },
  });
}

/**
 * Sign-in state across the configuration and monitoring services (specification §4).
 * Three parallel regions: `session` (initialising → idle ⇄ signingIn) and one region per service
 * (idle ⇄ refreshing). A service in `refreshing` ignores further `auth.refresh` events, so every
 * concurrent caller waits for that one refresh and reads its result from the context.
 * I/O is in the actors `configLogin`, `monitoringLogin` and `refreshTokens`; navigation is the
 * injected action `navigateToLogin` (a no-op until the app provides it).
 */
export const authMachine = authSetup.createMachine({
  id: 'auth',
  type: 'parallel',
  context: ({ input }) => {
    const stored = readStoredSession(input.storage);
    return {
      storage: input.storage,
      email: stored.email,
      config: emptySession(stored.configRefreshToken),
      monitoring: emptySession(stored.monitoringRefreshToken),
      loginError: null,
    };
  },
  on: {
    'auth.logout': {
      target: ['.session.idle', '.config.idle', '.monitoring.idle'],
      actions: [
        'clearSession',
        'clearStoredSession',
        { type: 'navigateToLogin', params: { replace: false } },
      ],
    },
  },
  states: {
    session: {
      initial: 'initialising',
      states: {
        initialising: {
          // Initialised once every stored refresh token has been tried (specification §4, "Start").
          always: {
            guard: and([stateIn('#auth.config.idle'), stateIn('#auth.monitoring.idle')]),
            target: 'idle',
          },
        },
        idle: {
          on: { 'auth.login': { target: 'signingIn', actions: 'startSignIn' } },
        },
        signingIn: {
          initial: 'config',
          states: {
            config: {
              invoke: {
                src: 'configLogin',
                input: ({ event }) =>
                  event.type === 'auth.login'
                    ? { email: event.email.trim(), password: event.password }
                    : { email: '', password: '' },
                onDone: {
                  target: 'monitoring',
                  actions: {
                    type: 'storeTokens',
                    params: ({ event }) => ({ service: 'config', pair: event.output }),
                  },
                },
                onError: {
                  target: '#auth.session.idle',
                  actions: [
                    { type: 'signInFailed', params: ({ event }) => ({ error: event.error }) },
                    'forgetRefreshTokens',
                  ],
                },
              },
            },
            monitoring: {
              invoke: {
                src: 'monitoringLogin',
                input: ({ context }) => ({
                  email: context.email ?? '',
                  accessToken: context.config.accessToken ?? '',
                }),
                onDone: {
                  target: '#auth.session.idle',
                  actions: [
                    {
                      type: 'storeTokens',
                      params: ({ event }) => ({ service: 'monitoring', pair: event.output }),
                    },
                    'persistSession',
                  ],
                },
                onError: {
                  target: '#auth.session.idle',
                  actions: [
                    { type: 'signInFailed', params: ({ event }) => ({ error: event.error }) },
                    'forgetRefreshTokens',
                  ],
                },
              },
            },
          },
        },
      },
    },
    config: serviceRegion('config'),
    monitoring: serviceRegion('monitoring'),
  },
});
