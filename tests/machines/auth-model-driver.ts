import { expect } from 'vitest';
import { waitFor } from 'xstate';
import type { TestParam } from 'xstate/graph';
import {
  isAuthenticated,
  isInitialised,
  isRefreshing,
  isSigningIn,
  loginError,
} from '../../machines/auth/auth-selectors.ts';
import { NO_REFRESH_TOKEN } from '../../machines/auth/auth-setup.ts';
import { refreshLockName } from '../../machines/auth/auth-tabs.ts';
import { refreshTokenKey, STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { type AuthHarness, pair, startAuth } from './auth-harness.ts';
import { FakeChannelHub, FakeLocks } from './auth-tab-fakes.ts';

// biome-ignore lint/suspicious/noExplicitAny: TestParam is generic over the model's snapshot and events
type Params = TestParam<any, any>;

/**
 * Events and state checks that run one path of `authModel` against the real auth machine.
 * Each path gets its own driver (and so its own machine, storage and navigation log).
 */
export function authModelDriver(): Params {
  let harness: AuthHarness | null = null;
  let generation = 1;
  // The browser this tab runs in: its Web Locks and the channel to the other (simulated) tabs.
  const locks = new FakeLocks();
  const hub = new FakeChannelHub();
  const configLock = refreshLockName('config');
  const monitoringLock = refreshLockName('monitoring');
  let releaseSiblingLock: (() => void) | null = null;
  /** The monitoring lock alone, to free it before the configuration lock. */
  let releaseMonitoringFirst: (() => void) | null = null;
  let logoutCallsBeforeSibling = 0;
  const h = (): AuthHarness => {
    if (!harness) throw new Error('the machine has not been started');
    return harness;
  };
  const snap = () => h().actor.getSnapshot();
  /** Lock requests are granted on a later task, as in browsers: wait until none is pending here. */
  const lockSettled = () =>
    waitFor(
      h().actor,
      (s) =>
        releaseSiblingLock !== null ||
        !(
          s.matches({ config: { refreshing: 'waitingForLock' } }) ||
          s.matches({ monitoring: { refreshing: 'waitingForLock' } })
        ),
    );
  /** Another tab rotated both stored refresh tokens. */
  const siblingRotated = () => {
    h().storage.setItem(refreshTokenKey('config'), 'cfg-r-sibling');
    h().storage.setItem(refreshTokenKey('monitoring'), 'mon-r-sibling');
  };
  const releaseLocks = () => {
    releaseSiblingLock?.();
    releaseSiblingLock = null;
  };
  /** The sibling signed out while it held the locks, and its message was lost. */
  const siblingSignedOutHoldingLocks = async (order: 'config first' | 'monitoring first') => {
    for (const key of [refreshTokenKey('config'), refreshTokenKey('monitoring'), STORAGE_KEYS.currentEmail]) {
      h().storage.removeItem(key);
    }
    if (order === 'monitoring first') {
      releaseMonitoringFirst?.();
      await waitFor(h().actor, (s) => !s.matches({ monitoring: { refreshing: 'waitingForLock' } }));
    }
    releaseLocks();
    await waitFor(h().actor, (s) => !isRefreshing(s, 'config') && !isRefreshing(s, 'monitoring'));
  };
  const pendingInputs = () =>
    h()
      .refresh.pending()
      .map((c) => c.input);
  const lastNavigation = () => h().navigations.at(-1);
  const signedOutChecks = () => {
    expect(isInitialised(snap())).toBe(true);
    expect(isAuthenticated(snap())).toBe(false);
    expect(isSigningIn(snap())).toBe(false);
    expect(snap().context.config.accessToken).toBeNull();
    expect(snap().context.monitoring.accessToken).toBeNull();
    expect(h().storage.getItem(refreshTokenKey('config'))).toBeNull();
    expect(h().storage.getItem(refreshTokenKey('monitoring'))).toBeNull();
  };

  return {
    events: {
      'boot.empty': () => {
        harness = startAuth({ locks, hub });
      },
      'boot.storedNoLocks': () => {
        harness = startAuth({
          stored: { config: 'cfg-r0', monitoring: 'mon-r0' },
          email: 'admin@fleet.example',
          hub,
        });
      },
      'refresh.rotatedElsewhere': async () => {
        siblingRotated();
        // Each service refuses the token this tab spent: the other tab's rotation made it old.
        await Promise.all(
          h()
            .refresh.pending()
            .map((call) => call.reject(new Error('Refresh token reused'))),
        );
        await waitFor(h().actor, () => h().refresh.pending().length === 2);
      },
      'refresh.failMonitoring': async () => {
        const monitoring = h()
          .refresh.pending()
          .find((c) => c.input.service === 'monitoring');
        await monitoring?.reject(new Error('Refresh token expired'));
        // The configuration service's late answer must not bring the session back.
        await Promise.all(
          h()
            .refresh.pending()
            .map((call) => call.resolve(pair('late-a', 'late-r'))),
        );
      },
      'boot.stored': async () => {
        harness = startAuth({
          stored: { config: 'cfg-r0', monitoring: 'mon-r0' },
          email: 'admin@fleet.example',
          locks,
          hub,
        });
        await lockSettled();
      },
      'auth.login': () => {
        h().actor.send({
          type: 'auth.login',
          email: 'installer@solarpros.example',
          password: 'Installer#2026',
        });
      },
      'login.configOk': async () => {
        await h()
          .configLogin.last()
          .resolve(pair(`cfg-a${generation}`, `cfg-r${generation}`));
      },
      'login.configFail': async () => {
        await h().configLogin.last().reject(new Error('E-mail or password is wrong'));
      },
      'login.monitoringOk': async () => {
        await h()
          .monitoringLogin.last()
          .resolve(pair(`mon-a${generation}`, `mon-r${generation}`));
      },
      'login.monitoringFail': async () => {
        await h().monitoringLogin.last().reject(new Error('Monitoring refused the configuration token'));
      },
      'auth.refresh': async () => {
        h().actor.send({ type: 'auth.refresh', service: 'config' });
        h().actor.send({ type: 'auth.refresh', service: 'monitoring' });
        await lockSettled();
      },
      'lock.heldElsewhere': () => {
        const releaseConfig = locks.holdElsewhere(configLock);
        const releaseMonitoring = locks.holdElsewhere(monitoringLock);
        let monitoringReleased = false;
        releaseMonitoringFirst = () => {
          monitoringReleased = true;
          releaseMonitoring();
        };
        releaseSiblingLock = () => {
          releaseConfig();
          if (!monitoringReleased) releaseMonitoring();
        };
      },
      'lock.released': async () => {
        // The sibling rotated the stored tokens and told nobody.
        siblingRotated();
        releaseLocks();
        await lockSettled();
      },
      'lock.releasedSignedOut': () => siblingSignedOutHoldingLocks('config first'),
      'lock.releasedSignedOutMonitoringFirst': () => siblingSignedOutHoldingLocks('monitoring first'),
      'sibling.refreshed': async () => {
        siblingRotated();
        hub.fromSibling({
          kind: 'refreshed',
          service: 'config',
          pair: pair('cfg-a-sibling', 'cfg-r-sibling'),
        });
        hub.fromSibling({
          kind: 'refreshed',
          service: 'monitoring',
          pair: pair('mon-a-sibling', 'mon-r-sibling'),
        });
        await waitFor(
          h().actor,
          (s) =>
            s.context.config.accessToken === 'cfg-a-sibling' &&
            s.context.monitoring.accessToken === 'mon-a-sibling',
        );
        releaseLocks();
      },
      'sibling.signedOut': async () => {
        for (const key of [
          refreshTokenKey('config'),
          refreshTokenKey('monitoring'),
          STORAGE_KEYS.currentEmail,
        ]) {
          h().storage.removeItem(key);
        }
        logoutCallsBeforeSibling = h().endSession.calls.length;
        hub.fromSibling({ kind: 'signedOut' });
        await waitFor(h().actor, (s) => !isAuthenticated(s) && !isRefreshing(s, 'config'));
      },
      'sibling.signedIn': async () => {
        const config = pair('cfg-a-sibling', 'cfg-r-sibling');
        const monitoring = pair('mon-a-sibling', 'mon-r-sibling');
        h().storage.setItem(refreshTokenKey('config'), config.refresh_token);
        h().storage.setItem(refreshTokenKey('monitoring'), monitoring.refresh_token);
        h().storage.setItem(STORAGE_KEYS.currentEmail, 'owner@homeowner.example');
        hub.fromSibling({ kind: 'signedIn', email: 'owner@homeowner.example', config, monitoring });
        await waitFor(
          h().actor,
          (s) => isAuthenticated(s) && s.context.config.accessToken === 'cfg-a-sibling',
        );
        // A sibling that signed in holds no lock of this tab's refresh; whatever held it is done.
        releaseLocks();
        await waitFor(h().actor, (s) => !isRefreshing(s, 'config') && !isRefreshing(s, 'monitoring'));
      },
      'refresh.ok': async () => {
        generation += 1;
        await Promise.all(
          h()
            .refresh.pending()
            .map((call) => {
              const prefix = call.input.service === 'config' ? 'cfg' : 'mon';
              return call.resolve(pair(`${prefix}-a${generation}`, `${prefix}-r${generation}`));
            }),
        );
        await waitFor(h().actor, (s) => !isRefreshing(s, 'config') && !isRefreshing(s, 'monitoring'));
      },
      'refresh.fail': async () => {
        await h().refresh.pending()[0]?.reject(new Error('Refresh token expired'));
        // The other service's refresh was dropped; its late answer must not bring the session back.
        await Promise.all(
          h()
            .refresh.pending()
            .map((call) => call.resolve(pair('late-a', 'late-r'))),
        );
      },
      'auth.logout': async () => {
        h().actor.send({ type: 'auth.logout' });
        // A sign-in cut short may still answer: that late answer must not sign anyone in.
        await Promise.all(
          h()
            .configLogin.pending()
            .map((call) => call.resolve(pair('late-cfg-a', 'late-cfg-r'))),
        );
      },
    },
    states: {
      booting: () => {
        expect(harness).toBeNull();
      },
      initialising: () => {
        expect(isInitialised(snap())).toBe(false);
        expect(
          h()
            .refresh.pending()
            .map((c) => c.input.service),
        ).toEqual(['config', 'monitoring']);
      },
      signedOut: () => {
        signedOutChecks();
        expect(loginError(snap())).toBeNull();
        expect(h().navigations).toEqual([]);
      },
      noRefreshToken: () => {
        signedOutChecks();
        expect(snap().context.config.refreshError).toBe(NO_REFRESH_TOKEN);
        expect(lastNavigation()).toEqual({ to: '/login', replace: true, resume: true });
      },
      signingInConfig: () => {
        expect(isSigningIn(snap())).toBe(true);
        expect(h().configLogin.pending()).toHaveLength(1);
        expect(h().monitoringLogin.pending()).toHaveLength(0);
      },
      signingInMonitoring: () => {
        expect(isSigningIn(snap())).toBe(true);
        expect(isAuthenticated(snap())).toBe(false);
        expect(h().monitoringLogin.last().input.accessToken).toBe(`cfg-a${generation}`);
      },
      loginFailed: () => {
        signedOutChecks();
        expect(loginError(snap())).toMatch(/wrong|refused/);
      },
      signedIn: () => {
        expect(isInitialised(snap())).toBe(true);
        expect(isAuthenticated(snap())).toBe(true);
        expect(isRefreshing(snap(), 'config')).toBe(false);
        expect(h().storage.getItem(refreshTokenKey('config'))).toBe(`cfg-r${generation}`);
        expect(JSON.stringify(h().storage.entries())).not.toContain('-a');
      },
      refreshing: () => {
        expect(isRefreshing(snap(), 'config')).toBe(true);
        expect(isRefreshing(snap(), 'monitoring')).toBe(true);
        expect(pendingInputs().map((i) => i.service)).toEqual(['config', 'monitoring']);
        expect(locks.isHeld(configLock)).toBe(true);
        expect(locks.isHeld(monitoringLock)).toBe(true);
      },
      refreshingShared: () => {
        expect(isRefreshing(snap(), 'config')).toBe(true);
        // One refresh per service, however many callers asked.
        expect(pendingInputs().map((i) => i.service)).toEqual(['config', 'monitoring']);
      },
      sessionLostOnMonitoring: () => {
        signedOutChecks();
        expect(lastNavigation()).toEqual({ to: '/login', replace: true, resume: true });
        expect(hub.posted.at(-1)).toEqual({ kind: 'signedOut' });
      },
      initialisingNoLocks: () => {
        expect(isInitialised(snap())).toBe(false);
        expect(pendingInputs()).toEqual([
          { service: 'config', refreshToken: 'cfg-r0' },
          { service: 'monitoring', refreshToken: 'mon-r0' },
        ]);
      },
      retryingWithSiblingTokens: () => {
        expect(isInitialised(snap())).toBe(false);
        // Nothing wiped: the tokens the other tab left are tried.
        expect(pendingInputs()).toEqual([
          { service: 'config', refreshToken: 'cfg-r-sibling' },
          { service: 'monitoring', refreshToken: 'mon-r-sibling' },
        ]);
        expect(h().navigations).toEqual([]);
      },
      signedInAfterRetry: () => {
        expect(isAuthenticated(snap())).toBe(true);
        expect(h().storage.getItem(refreshTokenKey('monitoring'))).toBe(`mon-r${generation}`);
        expect(h().navigations).toEqual([]);
      },
      adoptedSiblingPairs: () => {
        expect(isAuthenticated(snap())).toBe(true);
        expect(snap().context.config.accessToken).toBe('cfg-a-sibling');
        expect(snap().context.monitoring.accessToken).toBe('mon-a-sibling');
        expect(h().refresh.pending()).toHaveLength(0);
      },
      sessionGone: () => {
        expect(isAuthenticated(snap())).toBe(false);
        expect(snap().context.config.accessToken).toBeNull();
        expect(h().refresh.pending()).toHaveLength(0);
        expect(lastNavigation()).toEqual({ to: '/login', replace: true, resume: true });
      },
      signedInBySiblingWhileWaiting: () => {
        expect(isAuthenticated(snap())).toBe(true);
        expect(snap().context.email).toBe('owner@homeowner.example');
        expect(snap().context.monitoring.accessToken).toBe('mon-a-sibling');
        // The refresh this tab waited for is not spent: the new session's tokens are.
        expect(h().refresh.pending()).toHaveLength(0);
      },
      sessionLost: () => {
        signedOutChecks();
        expect(lastNavigation()).toEqual({ to: '/login', replace: true, resume: true });
        expect(hub.posted.at(-1)).toEqual({ kind: 'signedOut' });
      },
      loggedOut: () => {
        signedOutChecks();
        expect(h().storage.length).toBe(0);
        expect(lastNavigation()).toEqual({ to: '/login', replace: false, resume: false });
        expect(hub.posted.at(-1)).toEqual({ kind: 'signedOut' });
        expect(h().endSession.calls.length).toBeGreaterThan(0);
      },
      lockHeldElsewhere: () => {
        expect(isAuthenticated(snap())).toBe(true);
        expect(locks.isHeld(configLock)).toBe(true);
      },
      waitingForLock: () => {
        expect(isAuthenticated(snap())).toBe(true);
        expect(isRefreshing(snap(), 'config')).toBe(true);
        // Nothing is spent while another tab holds the lock.
        expect(h().refresh.pending()).toHaveLength(0);
        expect(locks.waiting(configLock)).toBe(1);
        expect(locks.waiting(monitoringLock)).toBe(1);
      },
      usingSiblingTokens: () => {
        expect(isAuthenticated(snap())).toBe(true);
        expect(isRefreshing(snap(), 'config')).toBe(false);
        expect(isRefreshing(snap(), 'monitoring')).toBe(false);
        expect(snap().context.config.accessToken).toBe('cfg-a-sibling');
        expect(snap().context.monitoring.accessToken).toBe('mon-a-sibling');
        expect(h().refresh.pending()).toHaveLength(0);
        expect(locks.waiting(configLock)).toBe(0);
      },
      refreshingWithStoredToken: () => {
        expect(isRefreshing(snap(), 'config')).toBe(true);
        expect(pendingInputs()).toEqual([
          { service: 'config', refreshToken: 'cfg-r-sibling' },
          { service: 'monitoring', refreshToken: 'mon-r-sibling' },
        ]);
      },
      signedInBySibling: () => {
        expect(isAuthenticated(snap())).toBe(true);
        expect(snap().context.email).toBe('owner@homeowner.example');
        expect(snap().context.monitoring.accessToken).toBe('mon-a-sibling');
        expect(h().navigations).toEqual([]);
      },
      signedOutBySibling: () => {
        expect(isAuthenticated(snap())).toBe(false);
        expect(snap().context.config.accessToken).toBeNull();
        expect(h().refresh.pending()).toHaveLength(0);
        expect(lastNavigation()).toEqual({ to: '/login', replace: true, resume: true });
        // The tab that logged out revoked the session; this one calls nothing.
        expect(h().endSession.calls).toHaveLength(logoutCallsBeforeSibling);
      },
    },
  };
}
