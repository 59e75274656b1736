import { and, stateIn } from 'xstate';
import { serviceRegion } from './auth-service-region.ts';
import { authSetup, emptySession } from './auth-setup.ts';
import { readStoredSession } from './auth-storage.ts';
import { asAccessToken } from './tokens.ts';

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
                  accessToken: context.config.accessToken ?? asAccessToken(''),
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
