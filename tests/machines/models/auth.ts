import { authMachine } from '../../../machines/auth/auth-machine.ts';
import { authModel } from '../auth-model.ts';
import { authModelDriver } from '../auth-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

export default defineModel({
  name: 'auth',
  title: 'Sign-in across both services and every tab',
  source: 'machines/auth/auth-machine.ts',
  about:
    'Signing in (configuration service first, then monitoring with its token), starting from stored tokens, one refresh at a time, a refresh the server refuses, signing out, and the other tabs of the same browser sharing the session.',
  machine: authMachine,
  model: authModel,
  driver: authModelDriver,
  events: {
    'boot.empty': 'The app opens with nothing stored: nobody has signed in on this browser.',
    'boot.stored': "The app opens with both services' refresh tokens stored from an earlier visit.",
    'auth.login': 'The person types an e-mail and a password and presses Sign in.',
    'login.configOk': 'The configuration service accepts the e-mail and password.',
    'login.configFail': 'The configuration service refuses the e-mail and password.',
    'login.monitoringOk': "The monitoring service accepts the configuration service's access token.",
    'login.monitoringFail': "The monitoring service refuses the configuration service's access token.",
    'boot.storedNoLocks':
      'The app opens with stored refresh tokens in a browser without Web Locks (tabs cannot take turns).',
    'auth.refresh':
      'Calls to both services are answered 401 (the access tokens expired): both sessions are refreshed.',
    'refresh.failMonitoring':
      'The monitoring service refuses its refresh first; the configuration service answers late.',
    'refresh.rotatedElsewhere':
      'Another tab refreshed both services meanwhile, so each refuses the token this tab spent (it is the old one).',
    'lock.releasedSignedOut':
      'The other tab signs out while it holds the refresh locks, and tells nobody; the configuration lock is freed first.',
    'lock.releasedSignedOutMonitoringFirst':
      'The other tab signs out while it holds the refresh locks, and tells nobody; the monitoring lock is freed first.',
    'refresh.ok': 'The services answer the refresh with a new token pair.',
    'refresh.fail': 'The server refuses the refresh: the refresh token expired or was revoked.',
    'auth.logout': 'The person chooses Sign out.',
    'lock.heldElsewhere': 'Another tab is refreshing the session: it holds the refresh lock.',
    'lock.released': 'The other tab finishes its refresh and tells nobody (its message is lost).',
    'sibling.refreshed': 'Another tab finishes a refresh and shares its new token pairs.',
    'sibling.signedOut': 'The person signs out in another tab.',
    'sibling.signedIn': 'The person signs in in another tab.',
  },
  states: {
    booting: 'The app is starting: nothing has been checked yet.',
    initialising:
      'The stored refresh tokens are being tried: the app waits before it shows anything private.',
    signedOut: 'Signed out at the sign-in screen, with no error.',
    noRefreshToken:
      'A refresh was asked with no refresh token: still signed out, sent to the sign-in screen (to come back after).',
    signingInConfig: 'Signing in: waiting for the configuration service.',
    signingInMonitoring:
      'Signing in: the configuration service said yes, waiting for the monitoring service.',
    loginFailed: "Signed out, with the service's refusal shown on the sign-in screen.",
    signedIn: 'Signed in on both services; only the refresh token is stored.',
    refreshing: 'Signed in, refreshing both sessions, each under its cross-tab lock.',
    sessionLostOnMonitoring:
      'Signed out at the sign-in screen (to come back after): the late answer brought nothing back.',
    initialisingNoLocks: 'Both stored tokens are spent at once (no lock to wait for).',
    retryingWithSiblingTokens: "Trying again with the other tab's tokens: nothing wiped, no sign-in screen.",
    signedInAfterRetry: 'Signed in on the second try, without ever seeing the sign-in screen.',
    adoptedSiblingPairs: "Signed in with the other tab's fresh pairs; nothing refreshed here.",
    sessionGone: 'Signed out and sent to the sign-in screen: the session ended in the other tab.',
    signedInBySiblingWhileWaiting:
      "Signed in as the other tab's new user; the refresh that waited spent nothing.",
    refreshingShared:
      'A second caller asked while the refresh ran: it waits for the same one, no second refresh.',
    sessionLost: 'The refresh failed: tokens cleared, the other tabs told, sent to the sign-in screen.',
    loggedOut: 'Signed out by the person: storage empty, the other tabs told, the server session ended.',
    lockHeldElsewhere: 'Still signed in while another tab refreshes.',
    waitingForLock:
      'This tab asked for a refresh while another held the lock: nothing is spent until it is released.',
    usingSiblingTokens: "The other tab's fresh pair is this tab's too: it spent no token of its own.",
    refreshingWithStoredToken:
      'The other tab told nobody: this tab spends the token now stored, never the one it started with.',
    signedInBySibling: "Signed in through the other tab's sign-in, while this tab was at the sign-in screen.",
    signedOutBySibling: 'Signed out because another tab signed out: at the sign-in screen, calling nothing.',
  },
});
