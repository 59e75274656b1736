import { expect } from 'vitest';
import type { TestParam } from 'xstate/graph';
import {
  isAuthenticated,
  isInitialised,
  isRefreshing,
  isSigningIn,
  loginError,
} from '../../machines/auth-selectors.ts';
import { NO_REFRESH_TOKEN } from '../../machines/auth-setup.ts';
import { refreshTokenKey } from '../../machines/storage-keys.ts';
import { type AuthHarness, pair, startAuth } from './auth-harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: TestParam is generic over the model's snapshot and events
type Params = TestParam<any, any>;

/**
 * Events and state checks that run one path of `authModel` against the real auth machine.
 * Each path gets its own driver (and so its own machine, storage and navigation log).
 */
export function authModelDriver(): Params {
  let harness: AuthHarness | null = null;
  let generation = 1;
  const h = (): AuthHarness => {
    if (!harness) throw new Error('the machine has not been started');
    return harness;
  };
  const snap = () => h().actor.getSnapshot();
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
        harness = startAuth();
      },
      'boot.stored': () => {
        harness = startAuth({
          stored: { config: 'cfg-r0', monitoring: 'mon-r0' },
          email: 'admin@fleet.example',
        });
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
      'auth.refresh': () => {
        h().actor.send({ type: 'auth.refresh', service: 'config' });
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
        expect(lastNavigation()).toEqual({ to: '/login', replace: true });
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
        expect(h().refresh.pending()).toHaveLength(1);
      },
      refreshingShared: () => {
        expect(isRefreshing(snap(), 'config')).toBe(true);
        expect(h().refresh.pending()).toHaveLength(1);
      },
      sessionLost: () => {
        signedOutChecks();
        expect(lastNavigation()).toEqual({ to: '/login', replace: true });
      },
      loggedOut: () => {
        signedOutChecks();
        expect(h().storage.length).toBe(0);
        expect(lastNavigation()).toEqual({ to: '/login', replace: false });
      },
    },
  };
}
