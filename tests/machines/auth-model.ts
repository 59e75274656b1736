import { createMachine } from 'xstate';

/**
 * Abstract model of the auth machine for model-based tests: what a user, the services and the other
 * tabs of the same browser can do, with no actors or delays. Every event is driven against the real
 * machine by `auth-model-driver.ts`; every state has assertions there.
 *
 * Other tabs: `lock.heldElsewhere` (a sibling is refreshing), `lock.released` (it is done and told
 * nobody), `lock.releasedSignedOut` (it signed out and told nobody), `sibling.refreshed` (it is done
 * and shares its pairs), `sibling.signedOut`, `sibling.signedIn`. A refresh is asked of both
 * services at once, as a page whose calls to both are answered 401 asks it.
 */
export const authModel = createMachine({
  id: 'authModel',
  initial: 'booting',
  states: {
    booting: {
      on: {
        'boot.empty': 'signedOut',
        'boot.stored': 'initialising',
        'boot.storedNoLocks': 'initialisingNoLocks',
      },
    },
    initialising: {
      on: {
        'refresh.ok': 'signedIn',
        'refresh.fail': 'sessionLost',
        'refresh.failMonitoring': 'sessionLostOnMonitoring',
      },
    },
    /** The monitoring service refused its refresh first: the configuration's answer no longer matters. */
    sessionLostOnMonitoring: {},
    /** A browser without Web Locks: the stored tokens are spent at once. */
    initialisingNoLocks: {
      on: { 'refresh.rotatedElsewhere': 'retryingWithSiblingTokens' },
    },
    /** Another tab rotated both tokens while this one spent them: it tries again with theirs, wiping nothing. */
    retryingWithSiblingTokens: {
      on: { 'refresh.ok': 'signedInAfterRetry' },
    },
    signedInAfterRetry: {},
    signedOut: {
      on: {
        'auth.login': 'signingInConfig',
        'auth.refresh': 'noRefreshToken',
        'sibling.signedIn': 'signedInBySibling',
      },
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
      on: {
        'auth.refresh': 'refreshing',
        'auth.logout': 'loggedOut',
        'lock.heldElsewhere': 'lockHeldElsewhere',
        'sibling.signedOut': 'signedOutBySibling',
        'sibling.refreshed': 'adoptedSiblingPairs',
      },
    },
    /** Another tab refreshed while this one was idle: its pairs are this tab's too. */
    adoptedSiblingPairs: {},
    /** Another tab is refreshing: this one is still signed in and may ask too. */
    lockHeldElsewhere: {
      on: { 'auth.refresh': 'waitingForLock' },
    },
    /** This tab asked while another held the lock: nothing is spent until it is released. */
    waitingForLock: {
      on: {
        'sibling.refreshed': 'usingSiblingTokens',
        'lock.released': 'refreshingWithStoredToken',
        'lock.releasedSignedOut': 'sessionGone',
        'lock.releasedSignedOutMonitoringFirst': 'sessionGone',
        'sibling.signedOut': 'signedOutBySibling',
        'sibling.signedIn': 'signedInBySiblingWhileWaiting',
      },
    },
    /** The tab that held the lock signed out and told nobody: the stored tokens are gone, so is the session. */
    sessionGone: {},
    /** Another tab signed in (anew) while this one waited: its session is this tab's. */
    signedInBySiblingWhileWaiting: {},
    /** The sibling's fresh pair is this tab's too; it spent no token of its own. */
    usingSiblingTokens: {},
    /** The sibling told nobody: this tab spends the token now stored, never the one it started with. */
    refreshingWithStoredToken: {},
    /** Signed in through a sibling's sign-in while this tab was at /login. */
    signedInBySibling: {},
    /** Another tab logged out: this one is signed out and at /login, its page kept to resume. */
    signedOutBySibling: {},
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
