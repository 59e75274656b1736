import { type ActorRefFrom, waitFor } from 'xstate';
import type { authMachine } from '../../machines/auth/auth-machine.ts';
import { isRefreshing } from '../../machines/auth/auth-selectors.ts';
import type { AccessToken } from '../../machines/auth/tokens.ts';
import type { Service } from '../../machines/storage-keys.ts';

/** Thrown to a caller whose refresh failed; the auth machine has already logged out. */
export class SessionExpiredError extends Error {
  readonly service: Service;

  constructor(service: Service, message: string) {
    super(message);
    this.name = 'SessionExpiredError';
    this.service = service;
  }
}

/** What the API clients need from the auth machine. */
export interface TokenSession {
  /** The access token in memory, or null. */
  getAccessToken(service: Service): AccessToken | null;
  /**
   * Refreshes `service` and resolves with the new access token. Concurrent callers share one
   * refresh: the machine ignores `auth.refresh` while it refreshes, and everyone waits for it.
   *
   * @throws SessionExpiredError when the refresh fails (the user is logged out to `/login`)
   */
  refresh(service: Service): Promise<AccessToken>;
}

/**
 * Token access over the running auth actor.
 *
 * @example
 * const session = createTokenSession(auth);
 * const token = await session.refresh('config');
 */
export function createTokenSession(auth: ActorRefFrom<typeof authMachine>): TokenSession {
  return {
    getAccessToken: (service) => auth.getSnapshot().context[service].accessToken,
    async refresh(service) {
      auth.send({ type: 'auth.refresh', service });
      const settled = await waitFor(auth, (s) => !isRefreshing(s, service));
      const session = settled.context[service];
      if (session.accessToken) return session.accessToken;
      throw new SessionExpiredError(
        service,
        session.refreshError ?? 'Your session has ended. Please sign in again.',
      );
    },
  };
}
