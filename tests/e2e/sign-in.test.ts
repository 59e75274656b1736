import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { expectAccessible } from './axe.ts';
import { appUrl, INSTALLER, launchChromium, OWNER, pathOf, saveScreenshot, signIn } from './browser.ts';

/** What the configuration service itself answers to a failed sign-in, asked directly. */
async function loginFailureMessage(user: { email: string; password: string }): Promise<string> {
  const config = (await (await fetch(appUrl('/app-config.json'))).json()) as {
    configUrl: string;
    apiKey: string;
  };
  const response = await fetch(new URL(`${config.configUrl}/auth/v2/login`, appUrl('/')), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'api-key': config.apiKey },
    body: JSON.stringify({ main_email: user.email, password: user.password }),
  });
  expect(response.status).toBe(401);
  const body = (await response.json()) as { message: string };
  expect(body.message.length).toBeGreaterThan(0);
  return body.message;
}

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

describe('signing in against the real services', () => {
  it('sends a guarded URL to /login and comes back to it after sign-in', async () => {
    await page.goto(appUrl('/site-details/1?tab=devices'));
    await page.waitForURL('**/login');
    await signIn(page, INSTALLER);
    await page.waitForURL('**/site-details/1?tab=devices');
    expect(pathOf(page)).toBe('/site-details/1?tab=devices');
    await page.getByRole('heading', { level: 1 }).waitFor({ state: 'visible' });
  });

  it("shows the server's message when the password is wrong", async () => {
    const wrong = { email: INSTALLER.email, password: 'definitely-not-it' };
    const serverMessage = await loginFailureMessage(wrong);
    await page.goto(appUrl('/login'));
    await signIn(page, wrong);
    const alert = page.getByRole('alert').filter({ hasText: 'Sign-in failed' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(serverMessage);
    await saveScreenshot(page, 'sign-in-failed.png', { animations: 'disabled' });
    expect(pathOf(page)).toBe('/login');
  });

  it('logs out to /login and keeps guarded screens closed afterwards', async () => {
    await page.goto(appUrl('/login'));
    await signIn(page, INSTALLER);
    await page.waitForURL('**/landing');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    const stored = await page.evaluate(
      (key) => window.localStorage.getItem(key),
      STORAGE_KEYS.configRefreshToken,
    );
    expect(stored).toBeNull();
    await page.goto(appUrl('/users-list'));
    await page.waitForURL('**/login');
    expect(pathOf(page)).toBe('/login');
  });

  it('ends at /login when the server rejects the stored refresh token', async () => {
    await page.goto(appUrl('/login'));
    await signIn(page, INSTALLER);
    await page.waitForURL('**/landing');
    // With the real tokens a fresh page load resumes the session from storage...
    await page.goto(appUrl('/devices-list'));
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    expect(pathOf(page)).toBe('/devices-list?page=0');
    // ...with tokens the server rejects, the refresh at start fails and the app signs out.
    await page.evaluate((keys) => {
      window.localStorage.setItem(keys.configRefreshToken, 'revoked-or-made-up');
      window.localStorage.setItem(keys.monitoringRefreshToken, 'revoked-or-made-up');
    }, STORAGE_KEYS);
    await page.goto(appUrl('/devices-list'));
    await page.waitForURL('**/login');
    expect(pathOf(page)).toBe('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible' });
    const left = await page.evaluate(
      (key) => window.localStorage.getItem(key),
      STORAGE_KEYS.configRefreshToken,
    );
    expect(left).toBeNull();
  });
});

// The demo installer signs in often elsewhere in the suite; these use other demo accounts so
// that no account comes near the server's sign-in limit.
const OTHER_INSTALLER = { email: 'installer@brightvolt.example', password: 'Installer#2026' };

/** True when the element `locator` points at has the page's focus. */
const isFocused = (locator: ReturnType<Page['getByLabel']>) =>
  locator.evaluate((element) => element === document.activeElement);

describe('the sign-in screen for keyboard and screen-reader users', () => {
  it('shows the prerendered shell with Loading… on a guarded path until the app has started', async () => {
    // Hold the app's script: what the page shows meanwhile is the page the build rendered.
    const held: Route[] = [];
    let released = false;
    await page.route('**/assets/*.js', (route) => (released ? route.continue() : void held.push(route)));
    await page.goto(appUrl('/landing'), { waitUntil: 'commit' });
    await page.getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
    released = true;
    await Promise.all(held.map((route) => route.continue()));
    // Signed out: the app sends the guarded path to the sign-in screen.
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('opens "Forgot password?" pressed before the app has started, and starts the app at that step', async () => {
    const errors: string[] = [];
    const onError = (error: Error) => errors.push(error.message);
    page.on('pageerror', onError);
    const held: Route[] = [];
    let released = false;
    await page.route('**/assets/*.js', (route) => (released ? route.continue() : void held.push(route)));
    await page.goto(appUrl('/login'), { waitUntil: 'commit' });
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/login?step=reset', { waitUntil: 'commit' });
    released = true;
    // Those of the page left behind may be gone with it.
    await Promise.all(held.map((route) => route.continue().catch(() => undefined)));
    await page.getByRole('button', { name: 'Send access code' }).waitFor();
    page.off('pageerror', onError);
    // The page holds the sign-in step's markup: the app renders the reset step over it, not
    // hydrating markup it would not have made.
    expect(errors).toEqual([]);
  });

  it('starts with focus in E-mail and has no serious accessibility violation', async () => {
    await page.goto(appUrl('/login'));
    const email = page.getByLabel(/^E-mail/);
    await email.waitFor();
    await expect.poll(() => isFocused(email)).toBe(true);
    await expectAccessible(page);
  });

  it('has no serious accessibility violation in either step of a password reset', async () => {
    await page.goto(appUrl('/login'));
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('button', { name: 'Send access code' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel(/^E-mail/).fill('owner@homeowner.example');
    await page.getByRole('button', { name: 'Send access code' }).click();
    await page.getByLabel(/^Access code/).waitFor();
    await expectAccessible(page);
  });

  it('prefills the e-mail of the last sign-in once the session has ended', async () => {
    await page.goto(appUrl('/login'));
    await signIn(page, OTHER_INSTALLER);
    await page.waitForURL('**/landing');
    await page.evaluate((keys) => {
      window.localStorage.setItem(keys.configRefreshToken, 'expired-while-away');
      window.localStorage.setItem(keys.monitoringRefreshToken, 'expired-while-away');
    }, STORAGE_KEYS);
    await page.goto(appUrl('/landing'));
    await page.waitForURL('**/login');
    const email = page.getByLabel(/^E-mail/);
    await expect.poll(() => email.inputValue()).toBe(OTHER_INSTALLER.email);
    await expect.poll(() => isFocused(email)).toBe(true);
  });
});

describe('a service that is down at sign-in', () => {
  it('names the configuration service when the connection is refused, and says what to do', async () => {
    await page.route('**/config/auth/v2/login', (route) => route.abort('connectionrefused'));
    await page.goto(appUrl('/login'));
    await signIn(page, INSTALLER);
    const alert = page.getByRole('alert').filter({ hasText: 'Sign-in failed' });
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).toContain('The configuration service cannot be reached.');
    expect(text).toContain('Check that this device is online and try again');
    expect(pathOf(page)).toBe('/login');
  });

  it('names the monitoring service when it answers 503', async () => {
    await page.route('**/monitoring/auth/v2/configurator-login', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Service Unavailable', code: 'unavailable' }),
      }),
    );
    await page.goto(appUrl('/login'));
    await signIn(page, OWNER);
    const alert = page.getByRole('alert').filter({ hasText: 'Sign-in failed' });
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).toContain('The monitoring service is not available right now (HTTP 503).');
    expect(text).toContain('Try again in a few minutes');
    await saveScreenshot(page, 'sign-in-service-down.png', { animations: 'disabled' });
    expect(pathOf(page)).toBe('/login');
  });
});
