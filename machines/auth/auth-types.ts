import type { TokenPair } from '../../contracts/auth.ts';
import type { Service } from '../storage-keys.ts';
import type { AccessToken, RefreshToken } from './tokens.ts';

// The auth machine's shared types, apart from its set-up: the tab messages, the actors the app
// provides and the tests all name them without importing the machine.

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
  | { type: 'auth.sessionLost' }
  /** From the `refreshLock` actor: no other tab refreshes `service` until this one is done. */
  | { type: 'auth.lockAcquired'; service: Service }
  /** Another tab refreshed `service` and stored `pair.refresh_token`. */
  | { type: 'auth.siblingRefreshed'; service: Service; pair: TokenPair }
  /** Another tab signed in and stored both refresh tokens. */
  | { type: 'auth.siblingSignedIn'; email: string; config: TokenPair; monitoring: TokenPair }
  /** Another tab logged out, or lost the session in a failed refresh. */
  | { type: 'auth.siblingSignedOut' };

/** Refresh tokens to revoke on the services when a person logs out. */
export interface EndSessionInput {
  config: RefreshToken | null;
  monitoring: RefreshToken | null;
}

/** Where the app goes when the session ends; `resume` keeps the current page for after sign-in. */
export interface LoginNavigation {
  replace: boolean;
  resume: boolean;
}
