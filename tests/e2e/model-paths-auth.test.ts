import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokenKey, STORAGE_KEYS } from '../../machines/storage-keys.ts';
import auth from '../machines/models/auth.ts';
import type { ModelDriver } from '../machines/paths/model-entry.ts';
import { appUrl, INSTALLER, launchChromium, OWNER, pathOf, signIn } from './browser.ts';
import { browserPaths, HeldRequests, post, type Reach, uncheckedStates } from './model-paths-browser.ts';

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * Where each event of the auth model can be done in the browser. The others need what a browser
 * does not let a test choose: a call answered 401 while the tokens are fresh (`auth.refresh`), the
 * order in which Web Locks are granted or a browser without them, or a Logout button on the
 * sign-in screen; the machine paths in `tests/machines/` walk those.
 */
const REACH: Reach = {
  'boot.empty': ['booting'],
  'boot.stored': ['booting'],
  'refresh.ok': ['initialising'],
  'refresh.fail': ['initialising'],
  'refresh.failMonitoring': ['initialising'],
  'auth.login': ['signedOut', 'loginFailed', 'sessionLost'],
  'login.configOk': ['signingInConfig'],
  'login.configFail': ['signingInConfig'],
  'login.monitoringOk': ['signingInMonitoring'],
  'login.monitoringFail': ['signingInMonitoring'],
  'auth.logout': ['signedIn'],
  'sibling.signedOut': ['signedIn'],
  'sibling.signedIn': ['signedOut'],
  'sibling.refreshed': ['signedIn'],
};

/** A session signed in through the API, as an earlier visit left it in the browser. */
async function storedSession() {
  const config = (await (
    await post('config', '/auth/v2/login', { main_email: INSTALLER.email, password: INSTALLER.password })
  ).json()) as { access_token: string; refresh_token: string };
  const monitoring = (await (
    await post('monitoring', '/auth/v2/configurator-login', {
      username: INSTALLER.email,
      access_token: config.access_token,
    })
  ).json()) as { refresh_token: string };
  return { config: config.refresh_token, monitoring: monitoring.refresh_token };
}

const stored = (page: Page, key: string) => page.evaluate((k) => window.localStorage.getItem(k), key);

/** Runs one path of the auth model in a fresh browser: this tab, and a second one when a path needs it. */
function browserDriver(): ModelDriver {
  let context: BrowserContext;
  let page: Page;
  let logins: HeldRequests;
  let monitoringLogins: HeldRequests;
  let refreshes: HeldRequests;
  const open = async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    contexts.push(context);
    page = await context.newPage();
    // This tab's calls to the services are held until the model says how the service answers.
    logins = await HeldRequests.on(page, '**/auth/v2/login');
    monitoringLogins = await HeldRequests.on(page, '**/auth/v2/configurator-login');
    refreshes = await HeldRequests.on(page, '**/auth/v2/refresh');
  };
  /** Another tab of the same browser. */
  const otherTab = () => context.newPage();
  const signInButton = () => page.getByRole('button', { name: 'Sign in' });
  const atLogin = async () => {
    await page.waitForURL('**/login');
    await signInButton().waitFor();
  };
  const signedOut = async () => {
    await atLogin();
    expect(await stored(page, refreshTokenKey('config'))).toBeNull();
    expect(await stored(page, refreshTokenKey('monitoring'))).toBeNull();
  };
  const signedIn = async () => {
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(pathOf(page)).not.toBe('/login');
    expect(await stored(page, refreshTokenKey('config'))).toBeTruthy();
    expect(await stored(page, refreshTokenKey('monitoring'))).toBeTruthy();
  };
  const revoke = async (service: 'config' | 'monitoring') => {
    const token = await stored(page, refreshTokenKey(service));
    expect((await post(service, '/auth/v2/logout', { refresh_token: token })).status).toBe(204);
  };

  return {
    events: {
      'boot.empty': async () => {
        await open();
        await page.goto(appUrl('/login'));
      },
      'boot.stored': async () => {
        await open();
        const session = await storedSession();
        // Any page of the app's origin, to write its storage before the app itself starts.
        await page.goto(appUrl('/app-config.json'));
        await page.evaluate(
          ([keys, values]) => {
            window.localStorage.setItem(keys[0], values[0]);
            window.localStorage.setItem(keys[1], values[1]);
            window.localStorage.setItem(keys[2], values[2]);
          },
          [
            [refreshTokenKey('config'), refreshTokenKey('monitoring'), STORAGE_KEYS.currentEmail],
            [session.config, session.monitoring, INSTALLER.email],
          ] as const,
        );
        await page.goto(appUrl('/sites-list'), { waitUntil: 'commit' });
        await refreshes.atLeast(2);
      },
      'refresh.ok': () => refreshes.release(),
      // The server refuses: the refresh token was revoked (through the API) before it was spent.
      'refresh.fail': async () => {
        await revoke('config');
        await refreshes.release();
      },
      'refresh.failMonitoring': async () => {
        await revoke('monitoring');
        await refreshes.release();
      },
      'auth.login': async () => {
        const before = logins.count;
        await signIn(page, INSTALLER);
        await logins.atLeast(before + 1);
      },
      'login.configOk': async () => {
        await logins.release();
        await monitoringLogins.atLeast(1);
      },
      // As if the person had typed a wrong password: the real service refuses it.
      'login.configFail': () => logins.release((body) => ({ ...body, password: 'Not-the-password#1' })),
      'login.monitoringOk': () => monitoringLogins.release(),
      // The monitoring service is handed a token it did not issue, and refuses it.
      'login.monitoringFail': () =>
        monitoringLogins.release((body) => ({ ...body, access_token: `${String(body.access_token)}x` })),
      'auth.logout': () => page.getByRole('button', { name: 'Logout' }).click(),
      'sibling.signedOut': async () => {
        const other = await otherTab();
        await other.goto(appUrl('/users-list'));
        await other.getByRole('button', { name: 'Logout' }).click();
        await other.waitForURL('**/login');
      },
      'sibling.signedIn': async () => {
        const other = await otherTab();
        await other.goto(appUrl('/login'));
        await signIn(other, OWNER);
        await other.getByRole('button', { name: 'Logout' }).waitFor();
      },
      'sibling.refreshed': async () => {
        // A tab opened now refreshes both sessions at start and shares the new pairs.
        const before = await stored(page, refreshTokenKey('config'));
        const other = await otherTab();
        await other.goto(appUrl('/users-list'));
        await other.getByRole('button', { name: 'Logout' }).waitFor();
        await page.waitForFunction(([key, old]) => window.localStorage.getItem(key) !== old, [
          refreshTokenKey('config'),
          before,
        ] as const);
      },
    },
    states: {
      booting: () => undefined,
      signedOut: async () => {
        await signedOut();
        expect(await page.getByRole('alert').count()).toBe(0);
      },
      initialising: async () => {
        // Both stored tokens are being tried; nothing private is shown meanwhile.
        expect(refreshes.count).toBe(2);
        expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(0);
      },
      signingInConfig: async () => {
        expect(logins.count).toBe(1);
        expect(monitoringLogins.count).toBe(0);
        await expect.poll(() => signInButton().isDisabled()).toBe(true);
      },
      signingInMonitoring: async () => {
        expect(monitoringLogins.count).toBe(1);
        await expect.poll(() => signInButton().isDisabled()).toBe(true);
      },
      loginFailed: async () => {
        await page.getByRole('alert').filter({ hasText: 'Sign-in failed' }).waitFor();
        await signedOut();
      },
      signedIn,
      loggedOut: async () => {
        await signedOut();
        expect(await stored(page, STORAGE_KEYS.currentEmail)).toBeNull();
      },
      sessionLost: signedOut,
      sessionLostOnMonitoring: signedOut,
      signedOutBySibling: signedOut,
      signedInBySibling: async () => {
        await page.waitForURL((url) => url.pathname !== '/login');
        await signedIn();
        expect(await stored(page, STORAGE_KEYS.currentEmail)).toBe(OWNER.email);
      },
      adoptedSiblingPairs: async () => {
        await signedIn();
        // This tab took the other tab's pairs: it spent none of its own.
        expect(refreshes.count).toBe(0);
        await page.getByRole('link', { name: 'Users' }).first().click();
        await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
        expect(refreshes.count).toBe(0);
      },
    },
  };
}

describe('the auth model, in the browser: its shortest paths against the real app and server', () => {
  const paths = browserPaths(auth, REACH);

  it('runs the shortest paths of sign-in, refresh, sign-out and the other tabs, and checks each state', () => {
    expect(paths.length).toBeGreaterThanOrEqual(8);
    expect(uncheckedStates(paths, browserDriver())).toEqual([]);
  });

  for (const path of paths) {
    it(`${path.number}: ${path.steps.map((s) => s.event).join(' → ')} reaches ${path.target}`, async () => {
      await path.path.test(browserDriver());
    });
  }
});
