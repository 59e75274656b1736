import { and, not, stateIn } from 'xstate';
import { serviceRegion } from './auth-service-region.ts';
import { authSetup, emptySession } from './auth-setup.ts';
import { readStoredSession } from './auth-storage.ts';
import { asAccessToken } from './tokens.ts';

/**
 * Sign-in state across the configuration and monitoring services (specification §4).
 * Three parallel regions: `session` (initialising → idle ⇄ signingIn) and one region per service
 * (idle ⇄ refreshing). A service in `refreshing` ignores further `auth.refresh` events, so every
 * concurrent caller waits for that one refresh and reads its result from the context.
 *
 * The tabs of one browser share the stored session: the `tabChannel` actor (for the machine's whole
 * life) tells the other tabs of a sign-in, new tokens and a sign-out, and brings theirs here as
 * `auth.sibling*` events; a refresh runs under the cross-tab `refreshLock` (see the service region).
 * I/O is in the actors `configLogin`, `monitoringLogin`, `refreshTokens`, `refreshLock`,
 * `tabChannel` and `endServerSession`; navigation is the injected action `navigateToLogin`.
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
  invoke: { id: 'tabs', src: 'tabChannel' },
  on: {
    'auth.logout': {
      target: ['.session.idle', '.config.idle', '.monitoring.idle'],
      actions: [
        // Before anything is cleared: it revokes the tokens this session holds.
        'endServerSession',
        'clearSession',
        'clearStoredSession',
        { type: 'tellSiblings', params: { message: { kind: 'signedOut' } } },
        { type: 'navigateToLogin', params: { replace: false, resume: false } },
      ],
    },
    'auth.siblingSignedOut': {
      // A sign-in typed in this tab goes on; a tab that was signed out has nothing to end.
      guard: and(['hasSessionHere', not(stateIn('#auth.session.signingIn'))]),
      target: ['.session.idle', '.config.idle', '.monitoring.idle'],
      actions: ['clearSession', { type: 'navigateToLogin', params: { replace: true, resume: true } }],
    },
    'auth.siblingSignedIn': {
      guard: not(stateIn('#auth.session.signingIn')),
      actions: 'adoptSiblingSession',
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
                  actions: { type: 'signInFailed', params: ({ event }) => ({ error: event.error }) },
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
                    'tellSiblingsSignedIn',
                  ],
                },
                onError: {
                  target: '#auth.session.idle',
                  actions: { type: 'signInFailed', params: ({ event }) => ({ error: event.error }) },
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
