import {
  type AnyEventObject,
  assign,
  fromCallback,
  fromPromise,
  raise,
  sendTo,
  setup,
  spawnChild,
} from 'xstate';
import type { TokenPair } from '../../contracts/auth.ts';
import type { Service } from '../storage-keys.ts';
import {
  clearRefreshTokens,
  clearStoredSession,
  persistRefreshToken,
  persistSession,
  readRefreshToken,
} from './auth-storage.ts';
import type { TabMessage, TabPost } from './auth-tabs.ts';
import type {
  AuthContext,
  AuthEvent,
  AuthInput,
  EndSessionInput,
  LoginNavigation,
  ServiceSession,
} from './auth-types.ts';
import { type AccessToken, asAccessToken, asRefreshToken, type RefreshToken } from './tokens.ts';

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

/** A service session that a login, a refresh or a sibling's message just made good. */
export const sessionOf = (pair: TokenPair): ServiceSession => ({
  accessToken: asAccessToken(pair.access_token),
  refreshToken: asRefreshToken(pair.refresh_token),
  good: true,
  refreshError: null,
});

const pairOf = (session: ServiceSession): TokenPair => ({
  access_token: session.accessToken ?? '',
  refresh_token: session.refreshToken ?? '',
});

export const messageOf = (error: unknown, fallback: string): string =>
  error instanceof Error && error.message ? error.message : fallback;

/** Placeholder for an I/O actor: the app and the tests provide the real one with `machine.provide`. */
const missingActor = <TInput>(name: string) =>
  fromPromise<TokenPair, TInput>(async () => {
    throw new Error(`The ${name} actor is not provided`);
  });

type ServiceParams = { service: Service };

/** Only one tab: the lock is ours at once (the app provides the Web Locks one). */
const soleTabLock = fromCallback<AnyEventObject, ServiceParams>(({ sendBack, input }) => {
  sendBack({ type: 'auth.lockAcquired', service: input.service });
});

/** Only one tab: nobody to tell (the app provides the BroadcastChannel one). */
const noSiblings = fromCallback<TabPost>(() => {});

const storedOrKnown = (context: AuthContext, service: Service): RefreshToken | null =>
  readRefreshToken(context.storage, service) ?? context[service].refreshToken;

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
    /** Holds the cross-tab refresh lock of a service while it runs; sends `auth.lockAcquired`. */
    refreshLock: soleTabLock,
    /** Carries `tabs.post` messages to the other tabs and their messages back as `auth.sibling*`. */
    tabChannel: noSiblings,
    /** Best effort `POST /auth/v2/logout` on each service; must never reject. */
    endServerSession: fromPromise<void, EndSessionInput>(async () => {}),
  },
  actions: {
    /** Injected by the app: `navigate('/login', { replace })`, first keeping the page when `resume`. */
    navigateToLogin: (_, _params: LoginNavigation) => {},
    startSignIn: assign(({ event }) => ({
      email: event.type === 'auth.login' ? event.email.trim() : null,
      loginError: null,
    })),
    storeTokens: assign((_, { service, pair }: { service: Service; pair: TokenPair }) =>
      service === 'config' ? { config: sessionOf(pair) } : { monitoring: sessionOf(pair) },
    ),
    persistSession: ({ context }) => persistSession(context.storage, context),
    /** After a refresh only that service's token is written: the other may be a sibling's newer one. */
    persistRefreshToken: ({ context }, { service }: ServiceParams) =>
      persistRefreshToken(context.storage, service, context[service].refreshToken),
    /** The lock is ours: spend the token in storage now, which a sibling may have rotated meanwhile. */
    takeStoredToken: assign(({ context }, { service }: ServiceParams) => {
      const next = { ...context[service], refreshToken: readRefreshToken(context.storage, service) };
      return service === 'config' ? { config: next } : { monitoring: next };
    }),
    adoptSiblingSession: assign(({ event }) =>
      event.type === 'auth.siblingSignedIn'
        ? {
            email: event.email,
            loginError: null,
            config: sessionOf(event.config),
            monitoring: sessionOf(event.monitoring),
          }
        : {},
    ),
    tellSiblings: sendTo(
      'tabs',
      (_, { message }: { message: TabMessage }): TabPost => ({
        type: 'tabs.post',
        message,
      }),
    ),
    tellSiblingsSignedIn: sendTo(
      'tabs',
      ({ context }): TabPost => ({
        type: 'tabs.post',
        message: {
          kind: 'signedIn',
          email: context.email ?? '',
          config: pairOf(context.config),
          monitoring: pairOf(context.monitoring),
        },
      }),
    ),
    endServerSession: spawnChild('endServerSession', {
      input: ({ context }) => ({
        config: storedOrKnown(context, 'config'),
        monitoring: storedOrKnown(context, 'monitoring'),
      }),
    }),
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
    /**
     * A failed refresh of `service` removes the stored tokens only while that service's is still the
     * one this tab spent: a token a sibling stored since (a new sign-in) is its live session.
     */
    forgetRefreshTokens: ({ context }, { service }: ServiceParams) => {
      if (readRefreshToken(context.storage, service) === context[service].refreshToken) {
        clearRefreshTokens(context.storage);
      }
    },
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
    isLockOf: ({ event }, { service }: ServiceParams) =>
      event.type === 'auth.lockAcquired' && event.service === service,
    storedTokenGone: ({ context }, { service }: ServiceParams) =>
      readRefreshToken(context.storage, service) === null,
    /** A sibling stored another token while this tab spent its own: try again with that one. */
    storedTokenMovedOn: ({ context }, { service }: ServiceParams) => {
      const stored = readRefreshToken(context.storage, service);
      return stored !== null && stored !== context[service].refreshToken;
    },
    /**
     * A sibling's refresh of `service`. Not compared with storage: another tab's localStorage write
     * may reach this tab after its message does (browsers sync storage between tabs on their own
     * schedule). A late message only brings an older access token that still works; the token spent
     * next is always re-read from storage under the lock.
     */
    isSiblingRefreshOf: ({ event }, { service }: ServiceParams) =>
      event.type === 'auth.siblingRefreshed' && event.service === service,
    /** This tab holds (or is resuming) a session that a sibling's sign-out ends. */
    hasSessionHere: ({ context }) =>
      context.config.refreshToken !== null ||
      context.monitoring.refreshToken !== null ||
      context.config.good ||
      context.monitoring.good,
    hasRefreshToken: ({ context }, { service }: ServiceParams) => context[service].refreshToken !== null,
    isRefreshOf: ({ event }, { service }: ServiceParams) =>
      event.type === 'auth.refresh' && event.service === service,
    canRefresh: ({ context, event }, { service }: ServiceParams) =>
      event.type === 'auth.refresh' && event.service === service && context[service].refreshToken !== null,
  },
});
