import { authSetup, messageOf, NO_REFRESH_TOKEN, SESSION_EXPIRED } from './auth-setup.ts';
import { readRefreshToken } from './auth-storage.ts';
import type { Service } from './storage-keys.ts';
import { asRefreshToken } from './tokens.ts';

/**
 * One service's region: `boot` refreshes a stored token at start; `idle` starts a refresh on
 * `auth.refresh` for this service; `refreshing` ignores further `auth.refresh` (coalescing).
 */
export function serviceRegion(service: Service) {
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
          // Storage first: another tab of the app may have rotated the token since this one read it,
          // and sending the rotated-away token would make the server revoke the whole family.
          input: ({ context }) => ({
            service,
            refreshToken:
              readRefreshToken(context.storage, service) ??
              context[service].refreshToken ??
              asRefreshToken(''),
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
