import { createMachine } from 'xstate';

/**
 * Abstract model of the auth machine for model-based tests: what a user and the services can do,
 * with no actors or delays. Every event is driven against the real machine by
 * `auth-model-driver.ts`; every state has assertions there.
 */
export const authModel = createMachine({
  id: 'authModel',
  initial: 'booting',
  states: {
    booting: {
      on: { 'boot.empty': 'signedOut', 'boot.stored': 'initialising' },
    },
    initialising: {
      on: { 'refresh.ok': 'signedIn', 'refresh.fail': 'sessionLost' },
    },
    signedOut: {
      on: { 'auth.login': 'signingInConfig', 'auth.refresh': 'noRefreshToken' },
    },
    noRefreshToken: {
      on: { 'auth.login': 'signingInConfig' },
    },
    signingInConfig: {
      on: {
        'login.configOk': 'signingInMonitoring',
        'login.configFail': 'loginFailed',
        'auth.logout': 'loggedOut',
      },
    },
    signingInMonitoring: {
      on: { 'login.monitoringOk': 'signedIn', 'login.monitoringFail': 'loginFailed' },
    },
    loginFailed: {
      on: { 'auth.login': 'signingInConfig' },
    },
    signedIn: {
      on: { 'auth.refresh': 'refreshing', 'auth.logout': 'loggedOut' },
    },
    refreshing: {
      on: { 'auth.refresh': 'refreshingShared', 'refresh.ok': 'signedIn', 'refresh.fail': 'sessionLost' },
    },
    /** A second caller asked while the refresh ran: it waits for the same one. */
    refreshingShared: {
      on: { 'refresh.ok': 'signedIn', 'refresh.fail': 'sessionLost' },
    },
    sessionLost: {
      on: { 'auth.login': 'signingInConfig' },
    },
    loggedOut: {
      on: { 'auth.login': 'signingInConfig' },
    },
  },
});
