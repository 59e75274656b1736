import { and } from 'xstate';
import type { Service } from '../storage-keys.ts';
import { authSetup, messageOf, NO_REFRESH_TOKEN, SESSION_EXPIRED } from './auth-setup.ts';
import type { TabMessage } from './auth-tabs.ts';
import type { AuthEvent } from './auth-types.ts';
import { asRefreshToken } from './tokens.ts';

const SIGNED_OUT: TabMessage = { kind: 'signedOut' };

/**
 * One service's region: `boot` refreshes a stored token at start; `idle` starts a refresh on
 * `auth.refresh` for this service; `refreshing` ignores further `auth.refresh` (coalescing).
 *
 * Tabs share the stored refresh token, and the services revoke a whole token family when a
 * rotated-away token is presented again. So a refresh first waits for the cross-tab lock of its
 * service (`refreshLock`, held until the region leaves `refreshing`), then spends the token in
 * storage at that moment. A sibling that refreshed while this tab waited hands over its fresh
 * pair (`auth.siblingRefreshed`), and this tab uses it without refreshing at all.
 */
export function serviceRegion(service: Service) {
  const idle = `#auth.${service}.idle`;
  // After `forgetRefreshTokens`, which compares storage with what this tab knew before it is cleared.
  const sessionOver = [
    'announceSessionLost',
    { type: 'tellSiblings', params: { message: SIGNED_OUT } },
    { type: 'navigateToLogin', params: { replace: true, resume: true } },
  ] as const;
  const adoptSiblingRefresh = {
    type: 'storeTokens',
    params: ({ event }: { event: AuthEvent }) => ({
      service,
      // The guard admits only `auth.siblingRefreshed`.
      pair: event.type === 'auth.siblingRefreshed' ? event.pair : { access_token: '', refresh_token: '' },
    }),
  } as const;
  return authSetup.createStateConfig({
    initial: 'boot',
    on: {
      'auth.siblingRefreshed': {
        guard: { type: 'isSiblingRefreshOf', params: { service } },
        actions: adoptSiblingRefresh,
      },
    },
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
                { type: 'forgetRefreshTokens', params: { service } },
                { type: 'refreshFailed', params: { service, message: NO_REFRESH_TOKEN } },
                ...sessionOver,
              ],
            },
          ],
        },
      },
      refreshing: {
        initial: 'waitingForLock',
        // Held for the whole refresh: leaving `refreshing` (done, failed, logout) releases the lock.
        invoke: { src: 'refreshLock', input: { service } },
        // The other service's refresh failed: the session is over, this answer no longer matters.
        on: { 'auth.sessionLost': 'idle' },
        states: {
          waitingForLock: {
            on: {
              'auth.lockAcquired': [
                {
                  // A sibling logged out, or its refresh failed, while this tab waited.
                  guard: and([
                    { type: 'isLockOf', params: { service } },
                    { type: 'storedTokenGone', params: { service } },
                  ]),
                  target: idle,
                  actions: [
                    { type: 'forgetRefreshTokens', params: { service } },
                    { type: 'refreshFailed', params: { service, message: NO_REFRESH_TOKEN } },
                    ...sessionOver,
                  ],
                },
                {
                  guard: { type: 'isLockOf', params: { service } },
                  target: 'spending',
                  actions: { type: 'takeStoredToken', params: { service } },
                },
              ],
              // The sibling that held the lock refreshed: use its pair, spend nothing.
              'auth.siblingRefreshed': {
                guard: { type: 'isSiblingRefreshOf', params: { service } },
                target: idle,
                actions: adoptSiblingRefresh,
              },
              // A region that handles the event keeps the root's handler from running: adopt here too.
              'auth.siblingSignedIn': { target: idle, actions: 'adoptSiblingSession' },
            },
          },
          spending: {
            invoke: {
              src: 'refreshTokens',
              input: ({ context }) => ({
                service,
                refreshToken: context[service].refreshToken ?? asRefreshToken(''),
              }),
              onDone: {
                target: idle,
                actions: [
                  { type: 'storeTokens', params: ({ event }) => ({ service, pair: event.output }) },
                  { type: 'persistRefreshToken', params: { service } },
                  {
                    type: 'tellSiblings',
                    params: ({ event }) => ({ message: { kind: 'refreshed', service, pair: event.output } }),
                  },
                ],
              },
              onError: [
                {
                  // Only without Web Locks: a sibling rotated the token while this tab spent the same
                  // one. Its token is the live one; try again with it rather than wipe it.
                  guard: { type: 'storedTokenMovedOn', params: { service } },
                  target: `#auth.${service}.refreshing`,
                  reenter: true,
                },
                {
                  target: idle,
                  actions: [
                    { type: 'forgetRefreshTokens', params: { service } },
                    {
                      type: 'refreshFailed',
                      params: ({ event }) => ({ service, message: messageOf(event.error, SESSION_EXPIRED) }),
                    },
                    ...sessionOver,
                  ],
                },
              ],
            },
          },
        },
      },
    },
  });
}
