import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { isAuthenticated, isInitialised, isRefreshing } from '../../machines/auth/auth-selectors.ts';
import { NO_REFRESH_TOKEN } from '../../machines/auth/auth-setup.ts';
import { refreshLockName } from '../../machines/auth/auth-tabs.ts';
import { refreshTokenKey, STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { type AuthHarness, pair, startAuth } from './auth-harness.ts';
import { FakeChannelHub, FakeLocks, rotatingTokenServer } from './auth-tab-fakes.ts';
import { MemoryStorage } from './fakes.ts';

/** One browser: shared storage, Web Locks and channels, and the services rotating refresh tokens. */
function browser(options: { locks?: boolean } = {}) {
  const storage = new MemoryStorage();
  const locks = options.locks === false ? undefined : new FakeLocks();
  const hub = new FakeChannelHub();
  const server = rotatingTokenServer();
  storage.setItem(refreshTokenKey('config'), server.seed('config'));
  storage.setItem(refreshTokenKey('monitoring'), server.seed('monitoring'));
  storage.setItem(STORAGE_KEYS.currentEmail, 'installer@solarpros.example');
  const tabs: AuthHarness[] = [];
  const openTab = () => {
    const tab = startAuth({ storage, hub, refreshTokens: server.refreshTokens, ...(locks ? { locks } : {}) });
    tabs.push(tab);
    return tab;
  };
  return { storage, locks, hub, server, tabs, openTab };
}

const settled = (tab: AuthHarness) =>
  waitFor(tab.actor, (s) => isInitialised(s) && !isRefreshing(s, 'config') && !isRefreshing(s, 'monitoring'));

describe('tabs of one browser share one session', () => {
  it.each([2, 3])(
    '%i tabs opened at once all end signed in, and no token is presented twice',
    async (count) => {
      const b = browser();
      for (let i = 0; i < count; i++) b.openTab();
      for (const tab of b.tabs) await settled(tab);
      for (const tab of b.tabs) expect(isAuthenticated(tab.actor.getSnapshot())).toBe(true);
      expect(b.server.revoked).toBe(false);
      expect(new Set(b.server.presented).size).toBe(b.server.presented.length);
      expect(b.tabs.flatMap((t) => t.navigations)).toEqual([]);
      // A reload of each tab resumes from what storage now holds.
      const reloaded = b.tabs.map(() => b.openTab());
      for (const tab of reloaded) await settled(tab);
      for (const tab of reloaded) expect(isAuthenticated(tab.actor.getSnapshot())).toBe(true);
      expect(b.server.revoked).toBe(false);
    },
  );

  it('a tab that waited for the lock uses the pair its sibling got, and spends nothing', async () => {
    const b = browser();
    const first = b.openTab();
    await settled(first);
    const release = b.locks?.holdElsewhere(refreshLockName('config'));
    first.actor.send({ type: 'auth.refresh', service: 'config' });
    await waitFor(first.actor, () => (b.locks?.waiting(refreshLockName('config')) ?? 0) > 0);
    // The tab holding the lock refreshed and tells everyone; the stored token is already its new one.
    b.storage.setItem(refreshTokenKey('config'), 'cfg-from-sibling');
    b.hub.fromSibling({
      kind: 'refreshed',
      service: 'config',
      pair: pair('cfg-access-from-sibling', 'cfg-from-sibling'),
    });
    const s = await waitFor(first.actor, (x) => !isRefreshing(x, 'config'));
    release?.();
    expect(s.context.config.accessToken).toBe('cfg-access-from-sibling');
    expect(s.context.config.refreshToken).toBe('cfg-from-sibling');
    expect(b.server.presented.filter((t) => t.startsWith('cfg'))).toHaveLength(1);
    expect(b.locks?.waiting(refreshLockName('config'))).toBe(0);
  });

  it('a tab that gets the lock after a silent sibling refresh spends the new stored token, not its own', async () => {
    const b = browser();
    const tab = b.openTab();
    await settled(tab);
    const spentAtBoot = tab.actor.getSnapshot().context.config.refreshToken;
    const release = b.locks?.holdElsewhere(refreshLockName('config'));
    tab.actor.send({ type: 'auth.refresh', service: 'config' });
    // A sibling (an older build, or one whose message was lost) rotates the token under the lock.
    const sibling = startAuth({ storage: b.storage, refreshTokens: b.server.refreshTokens });
    await settled(sibling);
    release?.();
    const s = await waitFor(tab.actor, (x) => !isRefreshing(x, 'config'));
    expect(isAuthenticated(s)).toBe(true);
    expect(b.server.revoked).toBe(false);
    expect(b.server.presented).not.toContain(undefined);
    expect(b.server.presented.filter((t) => t === spentAtBoot)).toHaveLength(1);
    expect(b.storage.getItem(refreshTokenKey('config'))).toBe(s.context.config.refreshToken);
  });

  it('a refresh writes back only its own service, never a stale token of the other', async () => {
    const b = browser();
    const a = b.openTab();
    await settled(a);
    // A tab that does not hear the others (its message was lost, or no BroadcastChannel).
    const deaf = startAuth({ storage: b.storage, refreshTokens: b.server.refreshTokens });
    await settled(deaf);
    a.actor.send({ type: 'auth.refresh', service: 'monitoring' });
    await waitFor(a.actor, (s) => !isRefreshing(s, 'monitoring'));
    const monitoringNow = b.storage.getItem(refreshTokenKey('monitoring'));
    expect(monitoringNow).not.toBe(deaf.actor.getSnapshot().context.monitoring.refreshToken);
    deaf.actor.send({ type: 'auth.refresh', service: 'config' });
    const s = await waitFor(deaf.actor, (x) => !isRefreshing(x, 'config'));
    expect(isAuthenticated(s)).toBe(true);
    expect(b.storage.getItem(refreshTokenKey('monitoring'))).toBe(monitoringNow);
  });
});

describe('sign-in and sign-out reach every tab', () => {
  it('logging out in one tab signs out the others, sends them to /login keeping their page, and revokes once', async () => {
    const b = browser();
    const [a, c, d] = [b.openTab(), b.openTab(), b.openTab()];
    for (const tab of [a, c, d]) await settled(tab);
    const tokens = {
      config: b.storage.getItem(refreshTokenKey('config')),
      monitoring: b.storage.getItem(refreshTokenKey('monitoring')),
    };
    a.actor.send({ type: 'auth.logout' });
    expect(a.endSession.calls.map((call) => call.input)).toEqual([tokens]);
    for (const tab of [c, d]) {
      const s = await waitFor(tab.actor, (x) => !isAuthenticated(x));
      expect(s.context.config.accessToken).toBeNull();
      expect(tab.navigations).toEqual([{ to: '/login', replace: true, resume: true }]);
      expect(tab.endSession.calls).toHaveLength(0);
    }
    expect(a.navigations).toEqual([{ to: '/login', replace: false, resume: false }]);
    expect(b.storage.getItem(refreshTokenKey('config'))).toBeNull();
  });

  it('a tab waiting at /login is signed in when a sibling signs in', async () => {
    const b = browser();
    b.storage.clear();
    const [a, c] = [b.openTab(), b.openTab()];
    a.actor.send({ type: 'auth.login', email: 'installer@solarpros.example', password: 'Installer#2026' });
    a.configLogin.last().resolve(pair('cfg-a', 'cfg-r'));
    await waitFor(a.actor, () => a.monitoringLogin.calls.length > 0);
    a.monitoringLogin.last().resolve(pair('mon-a', 'mon-r'));
    const s = await waitFor(c.actor, isAuthenticated);
    expect(s.context.email).toBe('installer@solarpros.example');
    expect(s.context.config.accessToken).toBe('cfg-a');
    expect(s.context.monitoring.refreshToken).toBe('mon-r');
    expect(c.navigations).toEqual([]);
  });

  it("a failed sign-in in one tab leaves a sibling's stored session alone", async () => {
    const b = browser();
    // A tab left at /login by an earlier session, then a sibling signs in again over storage.
    const atLogin = startAuth({ storage: b.storage });
    atLogin.actor.send({ type: 'auth.logout' });
    b.storage.setItem(refreshTokenKey('config'), b.server.seed('config'));
    b.storage.setItem(refreshTokenKey('monitoring'), b.server.seed('monitoring'));
    const signedIn = b.openTab();
    await settled(signedIn);
    const stored = b.storage.entries();
    atLogin.actor.send({ type: 'auth.login', email: 'installer@solarpros.example', password: 'wrong' });
    atLogin.configLogin.last().reject(new Error('E-mail or password is wrong.'));
    await waitFor(atLogin.actor, (s) => s.context.loginError !== null);
    expect(b.storage.entries()).toEqual(stored);
    expect(isAuthenticated(signedIn.actor.getSnapshot())).toBe(true);
  });

  it('a refresh that finds the stored token gone (a sibling signed out meanwhile) ends the session here', async () => {
    const b = browser();
    const a = b.openTab();
    await settled(a);
    const release = b.locks?.holdElsewhere(refreshLockName('config'));
    a.actor.send({ type: 'auth.refresh', service: 'config' });
    b.storage.removeItem(refreshTokenKey('config'));
    b.storage.removeItem(refreshTokenKey('monitoring'));
    release?.();
    const s = await waitFor(a.actor, (x) => !isRefreshing(x, 'config'));
    expect(isAuthenticated(s)).toBe(false);
    expect(s.context.config.refreshError).toBe(NO_REFRESH_TOKEN);
    expect(a.navigations).toEqual([{ to: '/login', replace: true, resume: true }]);
  });
});

describe('the lock and the channel actors', () => {
  it('release the lock when the refresh ends, and withdraw a request still waiting at logout', async () => {
    const b = browser();
    const a = b.openTab();
    await settled(a);
    expect(b.locks?.isHeld(refreshLockName('config'))).toBe(false);
    const release = b.locks?.holdElsewhere(refreshLockName('config'));
    a.actor.send({ type: 'auth.refresh', service: 'config' });
    await waitFor(a.actor, () => (b.locks?.waiting(refreshLockName('config')) ?? 0) > 0);
    a.actor.send({ type: 'auth.logout' });
    expect(b.locks?.waiting(refreshLockName('config'))).toBe(0);
    release?.();
  });

  it('close the channel when the app stops', async () => {
    const b = browser();
    const a = b.openTab();
    await settled(a);
    expect(b.hub.openChannels).toBe(1);
    a.actor.stop();
    expect(b.hub.openChannels).toBe(0);
  });

  it('ignore a message that is not one of ours', async () => {
    const b = browser();
    const a = b.openTab();
    await settled(a);
    b.hub.deliver(null, { kind: 'loggedOut' });
    b.hub.deliver(null, { kind: 'refreshed', service: 'billing', pair: pair('x', 'y') });
    b.hub.deliver(null, 'signedOut');
    // Delivered in order: once this one is in, the ones before it have been dealt with.
    b.hub.fromSibling({ kind: 'refreshed', service: 'monitoring', pair: pair('mon-marker', 'mon-r-marker') });
    const s = await waitFor(a.actor, (x) => x.context.monitoring.accessToken === 'mon-marker');
    expect(isAuthenticated(s)).toBe(true);
    expect(a.navigations).toEqual([]);
  });

  it('without Web Locks a tab refreshes at once', async () => {
    const b = browser({ locks: false });
    const a = b.openTab();
    const s = await settled(a);
    expect(isAuthenticated(s)).toBe(true);
  });

  it("without BroadcastChannel a sibling's sign-out arrives as a storage event", async () => {
    const b = browser();
    const listeners: Array<(event: StorageEvent) => void> = [];
    const storageEvents = {
      addEventListener: (_: 'storage', listener: (event: StorageEvent) => void) => listeners.push(listener),
      removeEventListener: (_: 'storage', listener: (event: StorageEvent) => void) =>
        listeners.splice(listeners.indexOf(listener), 1),
    };
    const tab = startAuth({
      storage: b.storage,
      refreshTokens: b.server.refreshTokens,
      channel: { storageEvents },
    });
    await settled(tab);
    expect(isAuthenticated(tab.actor.getSnapshot())).toBe(true);
    // A rotation elsewhere is not a sign-out.
    for (const listener of [...listeners])
      listener({ key: refreshTokenKey('config'), newValue: 'x' } as StorageEvent);
    expect(isAuthenticated(tab.actor.getSnapshot())).toBe(true);
    for (const listener of [...listeners])
      listener({ key: refreshTokenKey('config'), newValue: null } as StorageEvent);
    const s = await waitFor(tab.actor, (x) => !isAuthenticated(x));
    expect(s.context.config.accessToken).toBeNull();
    expect(tab.navigations).toEqual([{ to: '/login', replace: true, resume: true }]);
    tab.actor.stop();
    expect(listeners).toHaveLength(0);
  });
});
