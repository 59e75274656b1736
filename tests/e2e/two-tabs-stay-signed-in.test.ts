import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { appUrl, INSTALLER, launchChromium, pathOf, signIn } from './browser.ts';

let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** Guarded screens and the heading each shows once it is open. */
const SCREENS = [
  ['/devices-list', 'Devices'],
  ['/sites-list', 'Sites'],
  ['/users-list', 'Users'],
] as const;

async function signedInContext(): Promise<{ context: BrowserContext; first: Page }> {
  const opened = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  context = opened;
  const first = await opened.newPage();
  await first.goto(appUrl('/login'));
  await signIn(first, INSTALLER);
  await first.waitForURL('**/landing');
  return { context: opened, first };
}

/** The guarded screen is open, in the shell, for a signed-in person (not sent to /login). */
async function expectOpen(page: Page, path: string, heading: string) {
  await page.getByRole('heading', { name: heading, exact: true }).waitFor({ state: 'visible' });
  await page.getByRole('button', { name: 'Logout' }).waitFor({ state: 'visible' });
  // Lists add their page to the URL (`?page=0`): the path is what must not change.
  expect(new URL(pathOf(page), 'http://app').pathname).toBe(path);
}

/** What the configuration service says of the stored refresh token: alive (200) or revoked (401). */
async function refreshStatus(page: Page): Promise<number> {
  const token = await page.evaluate(
    (key) => window.localStorage.getItem(key),
    STORAGE_KEYS.configRefreshToken,
  );
  const config = (await (await fetch(appUrl('/app-config.json'))).json()) as {
    configUrl: string;
    apiKey: string;
  };
  const response = await fetch(new URL(`${config.configUrl}/auth/v2/refresh`, appUrl('/')), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'api-key': config.apiKey },
    body: JSON.stringify({ refresh_token: token }),
  });
  return response.status;
}

describe('a person with several tabs stays signed in', () => {
  it.each([2, 3])(
    '%i tabs opened at once stay signed in, and again after a reload of each',
    async (count) => {
      const { context: ctx, first } = await signedInContext();
      const screens = SCREENS.slice(0, count - 1);
      const pages = await Promise.all(screens.map(() => ctx.newPage()));
      // Every new tab refreshes the stored tokens at start, all at the same moment.
      await Promise.all(pages.map((page, i) => page.goto(appUrl(screens[i]?.[0] ?? '/'))));
      await Promise.all(
        pages.map((page, i) => expectOpen(page, screens[i]?.[0] ?? '', screens[i]?.[1] ?? '')),
      );

      const all = [first, ...pages];
      const where = [['/landing', 'Home'] as const, ...screens];
      await Promise.all(all.map((page) => page.reload()));
      await Promise.all(all.map((page, i) => expectOpen(page, where[i]?.[0] ?? '', where[i]?.[1] ?? '')));
      // One by one too: each reload resumes from what the others left in storage.
      for (const [i, page] of all.entries()) {
        await page.reload();
        await expectOpen(page, where[i]?.[0] ?? '', where[i]?.[1] ?? '');
      }
      expect(await refreshStatus(first)).toBe(200);
    },
  );

  it('logging out in one tab signs out the others, which return to their page after signing in again', async () => {
    const { context: ctx, first } = await signedInContext();
    const pages = await Promise.all(SCREENS.slice(0, 2).map(() => ctx.newPage()));
    await Promise.all(pages.map((page, i) => page.goto(appUrl(SCREENS[i]?.[0] ?? '/'))));
    await Promise.all(pages.map((page, i) => expectOpen(page, SCREENS[i]?.[0] ?? '', SCREENS[i]?.[1] ?? '')));

    await first.getByRole('button', { name: 'Logout' }).click();
    await first.waitForURL('**/login');
    for (const page of pages) {
      await page.waitForURL('**/login');
      await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible' });
    }

    const [second] = pages;
    if (!second) throw new Error('no second tab');
    await signIn(second, INSTALLER);
    await second.waitForURL((url) => url.pathname === SCREENS[0][0]);
    await expectOpen(second, SCREENS[0][0], SCREENS[0][1]);
    // The sign-in reaches the tabs still at /login too: the third goes back to its own page.
    const third = pages[1];
    if (!third) throw new Error('no third tab');
    await third.waitForURL((url) => url.pathname === SCREENS[1][0]);
    await expectOpen(third, SCREENS[1][0], SCREENS[1][1]);
    await first.waitForURL((url) => url.pathname !== '/login');
    await first.getByRole('button', { name: 'Logout' }).waitFor({ state: 'visible' });
  });
});
