import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { appUrl, INSTALLER, launchChromium, pathOf, signIn } from './browser.ts';

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
    await expect(page.getByRole('heading', { name: 'Site details' }).isVisible()).resolves.toBe(true);
  });

  it("shows the server's message when the password is wrong", async () => {
    await page.goto(appUrl('/login'));
    await signIn(page, { email: INSTALLER.email, password: 'definitely-not-it' });
    const alert = page.getByRole('alert').filter({ hasText: 'Sign-in failed' });
    await alert.waitFor();
    const message = (await alert.innerText()).replace('Sign-in failed', '').trim();
    expect(message.length).toBeGreaterThan(0);
    expect(message).not.toBe('Sign-in failed. Please try again.');
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
    await expect(page.getByRole('button', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    const left = await page.evaluate(
      (key) => window.localStorage.getItem(key),
      STORAGE_KEYS.configRefreshToken,
    );
    expect(left).toBeNull();
  });
});
