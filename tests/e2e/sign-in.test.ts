import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { ARTIFACTS, appUrl, INSTALLER, launchChromium, pathOf, signIn } from './browser.ts';

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
    await page.getByRole('heading', { name: 'Site details' }).waitFor({ state: 'visible' });
  });

  it("shows the server's message when the password is wrong", async () => {
    const wrong = { email: INSTALLER.email, password: 'definitely-not-it' };
    const serverMessage = await loginFailureMessage(wrong);
    await page.goto(appUrl('/login'));
    await signIn(page, wrong);
    const alert = page.getByRole('alert').filter({ hasText: 'Sign-in failed' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(serverMessage);
    await page.screenshot({ path: `${ARTIFACTS}sign-in-failed.png`, animations: 'disabled' });
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
    expect(pathOf(page)).toBe('/devices-list');
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
