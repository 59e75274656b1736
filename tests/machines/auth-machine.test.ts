import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import {
  currentEmail,
  isAuthenticated,
  isInitialised,
  isSigningIn,
  loginError,
} from '../../machines/auth/auth-selectors.ts';
import { GENERIC_LOGIN_ERROR, NO_REFRESH_TOKEN } from '../../machines/auth/auth-setup.ts';
import { refreshTokenKey, STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { pair, startAuth } from './auth-harness.ts';

async function signIn(h: ReturnType<typeof startAuth>) {
  h.actor.send({ type: 'auth.login', email: ' installer@solarpros.example ', password: 'Installer#2026' });
  h.configLogin.last().resolve(pair('cfg-access', 'cfg-refresh'));
  await waitFor(h.actor, () => h.monitoringLogin.pending().length > 0);
  h.monitoringLogin.last().resolve(pair('mon-access', 'mon-refresh'));
  await waitFor(h.actor, isAuthenticated);
}

describe('auth machine: start', () => {
  it('is initialised at once, signed out, when nothing is stored', () => {
    const h = startAuth();
    const s = h.actor.getSnapshot();
    expect(isInitialised(s)).toBe(true);
    expect(isAuthenticated(s)).toBe(false);
    expect(h.refresh.calls).toHaveLength(0);
  });

  it('refreshes each stored token before it is initialised, then counts as signed in', async () => {
    const h = startAuth({ stored: { config: 'cfg-r1', monitoring: 'mon-r1' }, email: 'admin@fleet.example' });
    expect(isInitialised(h.actor.getSnapshot())).toBe(false);
    expect(h.refresh.calls.map((c) => c.input)).toEqual([
      { service: 'config', refreshToken: 'cfg-r1' },
      { service: 'monitoring', refreshToken: 'mon-r1' },
    ]);
    h.refreshesOf('config')[0]?.resolve(pair('cfg-a2', 'cfg-r2'));
    const half = await waitFor(h.actor, (s) => s.context.config.good);
    expect(isInitialised(half)).toBe(false);
    h.refreshesOf('monitoring')[0]?.resolve(pair('mon-a2', 'mon-r2'));
    const s = await waitFor(h.actor, isInitialised);
    expect(isAuthenticated(s)).toBe(true);
    expect(currentEmail(s)).toBe('admin@fleet.example');
    expect(h.storage.getItem(refreshTokenKey('config'))).toBe('cfg-r2');
    expect(h.storage.getItem(refreshTokenKey('monitoring'))).toBe('mon-r2');
  });

  it('ends initialisation signed out, at /login (replaced), when a stored token is refused', async () => {
    const h = startAuth({ stored: { config: 'cfg-old', monitoring: 'mon-r1' } });
    h.refreshesOf('config')[0]?.reject(new Error('Refresh token revoked'));
    const s = await waitFor(h.actor, isInitialised);
    expect(isAuthenticated(s)).toBe(false);
    expect(s.context.config.refreshError).toBe('Refresh token revoked');
    expect(h.navigations).toEqual([{ to: '/login', replace: true, resume: true }]);
    expect(h.storage.getItem(refreshTokenKey('config'))).toBeNull();
    expect(h.storage.getItem(refreshTokenKey('monitoring'))).toBeNull();
  });
});

describe('auth machine: sign-in', () => {
  it('logs in to configuration first, then to monitoring with the configuration access token', async () => {
    const h = startAuth();
    h.actor.send({ type: 'auth.login', email: 'installer@solarpros.example', password: 'Installer#2026' });
    expect(isSigningIn(h.actor.getSnapshot())).toBe(true);
    expect(h.configLogin.last().input).toEqual({
      email: 'installer@solarpros.example',
      password: 'Installer#2026',
    });
    expect(h.monitoringLogin.calls).toHaveLength(0);
    h.configLogin.last().resolve(pair('cfg-access', 'cfg-refresh'));
    await waitFor(h.actor, () => h.monitoringLogin.pending().length > 0);
    expect(h.monitoringLogin.last().input).toEqual({
      email: 'installer@solarpros.example',
      accessToken: 'cfg-access',
    });
    expect(isAuthenticated(h.actor.getSnapshot())).toBe(false);
    h.monitoringLogin.last().resolve(pair('mon-access', 'mon-refresh'));
    const s = await waitFor(h.actor, isAuthenticated);
    expect(s.context.config.accessToken).toBe('cfg-access');
    expect(s.context.monitoring.accessToken).toBe('mon-access');
  });

  it('keeps refresh tokens and the e-mail in storage, and access tokens out of it', async () => {
    const h = startAuth();
    await signIn(h);
    expect(h.storage.entries()).toEqual({
      [STORAGE_KEYS.currentEmail]: 'installer@solarpros.example',
      [refreshTokenKey('config')]: 'cfg-refresh',
      [refreshTokenKey('monitoring')]: 'mon-refresh',
    });
    expect(JSON.stringify(h.storage.entries())).not.toContain('access');
  });

  it("shows the server's message when the configuration login is refused, and never calls monitoring", async () => {
    const h = startAuth();
    h.actor.send({ type: 'auth.login', email: 'owner@homeowner.example', password: 'wrong' });
    h.configLogin.last().reject(new Error('E-mail or password is wrong'));
    const s = await waitFor(h.actor, (x) => !isSigningIn(x));
    expect(loginError(s)).toBe('E-mail or password is wrong');
    expect(isSigningIn(s)).toBe(false);
    expect(h.monitoringLogin.calls).toHaveLength(0);
  });

  it('is not signed in when monitoring refuses, and says so generically without a message', async () => {
    const h = startAuth();
    h.actor.send({ type: 'auth.login', email: 'owner@homeowner.example', password: 'Owner#2026' });
    h.configLogin.last().resolve(pair('cfg-access', 'cfg-refresh'));
    await waitFor(h.actor, () => h.monitoringLogin.pending().length > 0);
    h.monitoringLogin.last().reject('no message');
    const s = await waitFor(h.actor, (x) => !isSigningIn(x));
    expect(isAuthenticated(s)).toBe(false);
    expect(s.context.config.accessToken).toBeNull();
    expect(loginError(s)).toBe(GENERIC_LOGIN_ERROR);
    expect(h.storage.getItem(refreshTokenKey('config'))).toBeNull();
  });
});

describe('auth machine: refresh', () => {
  it('runs one refresh per service however many callers ask at once', async () => {
    const h = startAuth();
    await signIn(h);
    for (let i = 0; i < 5; i++) {
      h.actor.send({ type: 'auth.refresh', service: 'config' });
      h.actor.send({ type: 'auth.refresh', service: 'monitoring' });
    }
    expect(h.refreshesOf('config')).toHaveLength(1);
    expect(h.refreshesOf('monitoring')).toHaveLength(1);
    expect(h.refreshesOf('config')[0]?.input.refreshToken).toBe('cfg-refresh');
  });

  it('rotates the stored refresh token after a refresh', async () => {
    const h = startAuth();
    await signIn(h);
    h.actor.send({ type: 'auth.refresh', service: 'config' });
    h.refresh.last().resolve(pair('cfg-a2', 'cfg-r2'));
    const s = await waitFor(h.actor, (x) => x.context.config.accessToken === 'cfg-a2');
    expect(isAuthenticated(s)).toBe(true);
    expect(h.storage.getItem(refreshTokenKey('config'))).toBe('cfg-r2');
  });

  it('refreshes with the token another tab rotated into storage, not the one it read at start', async () => {
    const h = startAuth();
    await signIn(h);
    h.storage.setItem(refreshTokenKey('config'), 'cfg-rotated-by-other-tab');
    h.actor.send({ type: 'auth.refresh', service: 'config' });
    expect(h.refresh.last().input).toEqual({ service: 'config', refreshToken: 'cfg-rotated-by-other-tab' });
  });

  it('logs out to /login with history replaced when a refresh fails, and drops the other refresh', async () => {
    const h = startAuth();
    await signIn(h);
    h.actor.send({ type: 'auth.refresh', service: 'monitoring' });
    h.actor.send({ type: 'auth.refresh', service: 'config' });
    h.refreshesOf('config')[0]?.reject(new Error('Refresh token expired'));
    await waitFor(h.actor, (x) => x.context.config.refreshError !== null);
    // The dropped monitoring refresh answers late: that must not bring the session back.
    await h.refreshesOf('monitoring')[0]?.resolve(pair('late-a', 'late-r'));
    const s = h.actor.getSnapshot();
    expect(isAuthenticated(s)).toBe(false);
    expect(s.context.config.good || s.context.monitoring.good).toBe(false);
    expect(s.context.config.accessToken).toBeNull();
    expect(s.context.monitoring.accessToken).toBeNull();
    expect(h.navigations).toEqual([{ to: '/login', replace: true, resume: true }]);
    expect(h.storage.getItem(refreshTokenKey('monitoring'))).toBeNull();
  });

  it(`fails with '${NO_REFRESH_TOKEN}' when nothing is stored`, () => {
    const h = startAuth();
    h.actor.send({ type: 'auth.refresh', service: 'monitoring' });
    expect(h.refresh.calls).toHaveLength(0);
    expect(h.actor.getSnapshot().context.monitoring.refreshError).toBe(NO_REFRESH_TOKEN);
    expect(h.navigations).toEqual([{ to: '/login', replace: true, resume: true }]);
  });
});

describe('auth machine: logout', () => {
  it('clears tokens and storage, sets both flags false and goes to /login', async () => {
    const h = startAuth();
    await signIn(h);
    h.storage.setItem(STORAGE_KEYS.resumePath, '/sites-list');
    h.storage.setItem('another-app', 'kept');
    h.actor.send({ type: 'auth.logout' });
    const s = h.actor.getSnapshot();
    expect(isAuthenticated(s)).toBe(false);
    expect(s.context.config).toMatchObject({ accessToken: null, refreshToken: null, good: false });
    expect(s.context.monitoring).toMatchObject({ accessToken: null, refreshToken: null, good: false });
    expect(h.storage.entries()).toEqual({ 'another-app': 'kept' });
    expect(h.navigations).toEqual([{ to: '/login', replace: false, resume: false }]);
  });

  it('stops a sign-in under way', async () => {
    const h = startAuth();
    h.actor.send({ type: 'auth.login', email: 'admin@fleet.example', password: 'FleetAdmin#2026' });
    h.actor.send({ type: 'auth.logout' });
    // The cut-short login answers late: awaiting it lets the machine see (and ignore) it.
    await h.configLogin.last().resolve(pair('cfg-access', 'cfg-refresh'));
    expect(h.monitoringLogin.calls).toHaveLength(0);
    expect(isAuthenticated(h.actor.getSnapshot())).toBe(false);
  });
});
