import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectAccessible, seriousAccessibilityViolations as seriousViolations } from './axe.ts';
import { ADMIN, appUrl, INSTALLER, launchChromium, OWNER, saveScreenshot, signIn } from './browser.ts';

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

async function signedInPage(
  user: { email: string; password: string },
  viewport = { width: 1280, height: 800 },
) {
  context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(appUrl('/login'));
  await signIn(page, user);
  await page.waitForURL('**/landing');
  // The URL changes before Home has loaded; once it has, focus moves to its heading. Wait for
  // that, so what a test does next is not undone by it.
  await expect.poll(() => focusedElement(page)).toBe('h1 Home');
  return page;
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Fleet Manager' });

/** The phone drawer slides off the left edge rather than disappearing, so check where it is. */
async function isOnScreen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x + box.width > 0;
}

describe('the shell', () => {
  it('shows Site Manager and Remote Debugger to company staff', async () => {
    const page = await signedInPage(ADMIN);
    await menu(page).getByRole('link', { name: 'Site Manager' }).waitFor();
    await menu(page).getByRole('link', { name: 'Remote Debugger' }).waitFor({ state: 'visible' });
    // The app runs here as in a browser without service workers (browser.ts): no offline copy.
    expect(await page.evaluate(() => 'serviceWorker' in navigator)).toBe(false);
    // This browser asks for reduced motion: page transitions are off.
    expect(await page.locator('[data-motion]').getAttribute('data-motion')).toBe('none');
    await saveScreenshot(page, 'shell-wide.png', { animations: 'disabled' });
  });

  it('hides Site Manager and Remote Debugger from an installer', async () => {
    const page = await signedInPage(INSTALLER);
    await menu(page).getByRole('link', { name: 'Users' }).waitFor();
    const names = await menu(page).getByRole('link').allInnerTexts();
    expect(names.map((name) => name.trim())).toEqual([
      'Home',
      'Sites',
      'Devices',
      'Users',
      'Alarms',
      'Company',
    ]);
  });

  it('keeps the catalogue refresh disabled for 20 seconds after a refresh', async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(appUrl('/login'));
    await signIn(page, INSTALLER);
    await page.waitForURL('**/landing');
    await menu(page).getByRole('link', { name: 'Sites' }).click();
    await page.waitForURL('**/sites-list?page=0');
    const refresh = page.getByRole('button', { name: 'Refresh devices list' });
    await expect(refresh.isEnabled()).resolves.toBe(true);
    const download = page.waitForResponse((response) => response.url().endsWith('/config/devices-list'));
    await refresh.click();
    await page.waitForURL('**/landing');
    // The list held is current: the app says which version it holds, the server answers unchanged.
    const answer = await download;
    expect(await answer.request().headerValue('list-version')).toBe('7');
    expect(answer.status()).toBe(304);
    await expect(refresh.isDisabled()).resolves.toBe(true);
    // The 20 s start once the list has reloaded, which takes real time: wait for it before
    // moving the page's fake clock, so the cooldown timer exists when the clock runs.
    await page
      .getByTestId('catalogue-version')
      .filter({ hasText: /^Devices list v\d+$/ })
      .waitFor();
    await expect(refresh.isDisabled()).resolves.toBe(true);
    // Timers run on the page's fake clock: the 20 s pass in milliseconds of real time.
    await page.clock.runFor(19_000);
    await expect(refresh.isDisabled()).resolves.toBe(true);
    await page.clock.runFor(1_500);
    await vi.waitFor(async () => expect(await refresh.isEnabled()).toBe(true), { timeout: 5_000 });
  });

  it('folds the menu into a drawer on a phone', async () => {
    const page = await signedInPage(INSTALLER, { width: 390, height: 844 });
    expect(await isOnScreen(menu(page))).toBe(false);
    await saveScreenshot(page, 'shell-phone.png', { animations: 'disabled' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu(page).getByRole('link', { name: 'Sites' }).waitFor({ state: 'visible' });
    await saveScreenshot(page, 'shell-phone-menu.png', { animations: 'disabled' });
    await menu(page).getByRole('link', { name: 'Sites' }).click();
    await page.waitForURL('**/sites-list?page=0');
    await page.getByRole('heading', { name: 'Sites' }).waitFor();
    await page.waitForFunction(() => {
      const nav = document.querySelector('nav[aria-labelledby="menu-title"]');
      return nav !== null && nav.getBoundingClientRect().right <= 0;
    });
    expect(await isOnScreen(menu(page))).toBe(false);
  });

  it('opens the menu with a swipe from the left edge of a phone', async () => {
    context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    await page.goto(appUrl('/login'));
    await signIn(page, INSTALLER);
    await page.waitForURL('**/landing');
    expect(await isOnScreen(menu(page))).toBe(false);
    const cdp = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y: 420 }] });
    // A short swipe (under the 10 px threshold) leaves the menu closed...
    await touch('touchStart', 3);
    await touch('touchMove', 9);
    await touch('touchEnd', 9);
    // Two frames let React apply any state change before the burger is read.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    // ...a longer one from the edge opens it.
    await touch('touchStart', 3);
    await touch('touchMove', 10);
    await touch('touchMove', 40);
    await touch('touchEnd', 40);
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    await page.waitForFunction(() => {
      const nav = document.querySelector('nav[aria-labelledby="menu-title"]');
      return nav !== null && nav.getBoundingClientRect().left >= 0;
    });
    expect(await isOnScreen(menu(page))).toBe(true);
  });
});

// The demo installer signs in often elsewhere in the suite; these checks use the demo owner so
// that no account comes near the server's sign-in limit.

/** Where the page's focus is: the element's role-ish description, for readable failures. */
const focusedElement = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    const inMenu = element.closest('#side-menu') !== null;
    return `${inMenu ? 'menu ' : ''}${element.tagName.toLowerCase()} ${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim()}`;
  });

describe('the shell for keyboard and screen-reader users', () => {
  it('moves focus to the heading of the screen a menu item opens', async () => {
    const page = await signedInPage(OWNER);
    await menu(page).getByRole('link', { name: 'Devices' }).click();
    await page.waitForURL('**/devices-list?page=0');
    await expect.poll(() => focusedElement(page)).toBe('h1 Devices');
  });

  it('keeps the closed phone menu out of the Tab order; opening focuses its first link, Escape the burger', async () => {
    const page = await signedInPage(OWNER, { width: 390, height: 844 });
    const burger = page.getByRole('button', { name: 'Open menu' });
    await burger.waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const reached: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      reached.push(await focusedElement(page));
    }
    expect(reached.filter((where) => where.startsWith('menu '))).toEqual([]);
    await burger.click();
    await expect.poll(() => focusedElement(page)).toBe('menu a Home');
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedElement(page)).toBe('button Open menu');
  });

  it('keeps focus in the open phone menu when the browser drops it to the page', async () => {
    const page = await signedInPage(OWNER, { width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect.poll(() => focusedElement(page)).toBe('menu a Home');
    // What Chromium does on its own now and then while the next screen loads: a blur to nowhere.
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await expect.poll(() => focusedElement(page)).toBe('menu a Home');
    // Moving on to another control is the person's choice, and stays.
    await page.keyboard.press('Tab');
    await expect.poll(() => focusedElement(page)).toBe('menu a Sites');
  });

  it('leaves focus in the phone menu when it is opened while the next screen loads', async () => {
    const page = await signedInPage(OWNER, { width: 390, height: 844 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/fleet/sites/all/**', async (route) => {
      await held;
      await route.continue();
    });
    const burger = page.getByRole('button', { name: 'Open menu' });
    await burger.click();
    await menu(page).getByRole('link', { name: 'Sites' }).click();
    await page.waitForURL('**/sites-list?page=0');
    // Sites is still loading; the person opens the menu again.
    await burger.click();
    await expect.poll(() => focusedElement(page)).toBe('menu a Home');
    release();
    // The app marks the screen whose focus it has handled: once Sites is marked, focus has stayed.
    await page.locator('html[data-focused-route="/sites-list"]').waitFor({ state: 'attached' });
    expect(await focusedElement(page)).toBe('menu a Home');
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedElement(page)).toBe('button Open menu');
  });

  it('has no serious accessibility violation on Home, wide and on a phone with the menu closed and open', async () => {
    const wide = await signedInPage(ADMIN);
    await wide.getByRole('heading', { name: 'Home' }).waitFor();
    await expectAccessible(wide);
    await context?.close();
    const phone = await signedInPage(ADMIN, { width: 390, height: 844 });
    await phone.getByRole('heading', { name: 'Home' }).waitFor();
    await expectAccessible(phone);
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await menu(phone).getByRole('link', { name: 'Sites' }).waitFor({ state: 'visible' });
    await expectAccessible(phone);
  });

  // Every screen the app routes to; new screens join this list.
  const SCREENS = [
    '/sites-list',
    '/devices-list',
    '/users-list',
    '/site-details/1',
    '/device-details/1',
    '/user-details/2',
    '/create-site',
    '/edit-site-address/1',
    '/site-manager',
    '/remote-debugger',
    '/device-details-old/HX5K-24-000123',
    '/sunspec-config',
  ];

  it('has no serious accessibility violation on any screen', async () => {
    const page = await signedInPage(ADMIN);
    const found: Record<string, string[]> = {};
    for (const path of SCREENS) {
      await page.goto(appUrl(path));
      await page.locator('main h1').first().waitFor();
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[path] = violations;
    }
    expect(found).toEqual({});
  });
});
