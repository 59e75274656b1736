import type { Browser, BrowserContext, Locator, Page, Request, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EARLY_INPUT_KEY, STARTING_ATTRIBUTE } from '../../src/prerender/early-input-contract.ts';
import { appUrl, INSTALLER, launchChromium, pathOf, saveScreenshot, signIn } from './browser.ts';
import { pageSettled } from './page-settled.ts';

// The sign-in screen comes in the first HTML (the build prerenders it): these hold the app's
// scripts back, use the form the page already shows, and only then let the scripts in. Without
// the prerendered page there is no form to type into while the scripts are held, and each test
// fails waiting for the E-mail field.

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
  context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

/**
 * Holds every request for the app's JavaScript (its entry and chunks) until `release` is called.
 * The page's small guard script (`before-app-…js`, which keeps an early press for the app) is
 * the one script let through: it is no part of the app.
 */
async function holdAppScripts(target: Page) {
  const held: Route[] = [];
  let released = false;
  await target.route('**/assets/*.js', async (route) => {
    if (released || route.request().url().includes('/before-app-')) await route.continue();
    else held.push(route);
  });
  return {
    /** How many of the app's script requests are waiting. */
    heldCount: () => held.length,
    release: async () => {
      released = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

/** Whether React has taken the form over: it keeps its props on the element under `__reactProps$…`. */
const reactOwns = (form: Locator) =>
  form.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps$')));

/** Every sign-in request and every request whose URL carries a password, as they are made. */
function watchRequests(target: Page) {
  const logins: Request[] = [];
  const passwordInUrl: string[] = [];
  target.on('request', (request) => {
    const url = request.url();
    if (url.includes('/auth/v2/login')) logins.push(request);
    if (/password=/i.test(url) || url.includes(encodeURIComponent(INSTALLER.password))) {
      passwordInUrl.push(url);
    }
  });
  return { logins, passwordInUrl };
}

describe('the prerendered sign-in screen before the app has started', () => {
  it('takes typing before the scripts run, keeps it through hydration, and signs in with it', async () => {
    const scripts = await holdAppScripts(page);
    const requests = watchRequests(page);
    await page.goto(appUrl('/login'), { waitUntil: 'commit' });
    const form = page.getByRole('form', { name: 'Sign in' });
    const email = page.getByLabel(/^E-mail/);
    const password = page.getByLabel(/^Password/);
    await email.waitFor({ state: 'visible' });
    // The app's entry has been asked for and is held: nothing of the app has run.
    await expect.poll(() => scripts.heldCount()).toBeGreaterThan(0);
    expect(await reactOwns(form)).toBe(false);

    await email.click();
    await email.pressSequentially(INSTALLER.email);
    await password.click();
    await password.pressSequentially(INSTALLER.password);
    expect(await reactOwns(form)).toBe(false);
    await saveScreenshot(page, 'prerendered-sign-in-typed.png', { animations: 'disabled' });

    await scripts.release();
    await expect.poll(() => reactOwns(form)).toBe(true);
    expect(await email.inputValue()).toBe(INSTALLER.email);
    expect(await password.inputValue()).toBe(INSTALLER.password);
    expect(requests.logins).toHaveLength(0);

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/landing');
    expect(requests.logins.map((request) => request.method())).toEqual(['POST']);
    expect(requests.passwordInUrl).toEqual([]);
  });

  it('holds a Sign in pressed before the scripts run, sends nothing, and signs in once when they arrive', async () => {
    const scripts = await holdAppScripts(page);
    const requests = watchRequests(page);
    await page.goto(appUrl('/login'), { waitUntil: 'commit' });
    const form = page.getByRole('form', { name: 'Sign in' });
    const email = page.getByLabel(/^E-mail/);
    await email.waitFor({ state: 'visible' });
    await expect.poll(() => scripts.heldCount()).toBeGreaterThan(0);
    // The guard that keeps an early press is loaded `async`: wait for it, as a person's first
    // press comes well after it (it is a few hundred bytes, fetched first).
    await page.waitForFunction((key) => key in window, EARLY_INPUT_KEY);

    await email.click();
    await email.pressSequentially(INSTALLER.email);
    await page.getByLabel(/^Password/).click();
    await page.getByLabel(/^Password/).pressSequentially(INSTALLER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Pressed Enter as well: still one sign-in, once the app is up.
    await page.keyboard.press('Enter');
    expect(await reactOwns(form)).toBe(false);
    // The page marks the press as waiting for the app (the button shows busy).
    expect(await page.locator(`html[${STARTING_ATTRIBUTE}]`).count()).toBe(1);
    // The browser made no submission of its own: the page and its address are the same.
    expect(pathOf(page)).toBe('/login');
    expect(await email.inputValue()).toBe(INSTALLER.email);

    await scripts.release();
    await page.waitForURL('**/landing');
    expect(requests.logins.map((request) => request.method())).toEqual(['POST']);
    expect(requests.passwordInUrl).toEqual([]);
  });
  it('holds "I have a code" pressed before the scripts run, and opens its step with the e-mail typed', async () => {
    const scripts = await holdAppScripts(page);
    await page.goto(appUrl('/login'), { waitUntil: 'commit' });
    const email = page.getByLabel(/^E-mail/);
    await email.waitFor({ state: 'visible' });
    await expect.poll(() => scripts.heldCount()).toBeGreaterThan(0);
    await page.waitForFunction((key) => key in window, EARLY_INPUT_KEY);

    await email.click();
    await email.pressSequentially('someone.early@example.com');
    await page.getByRole('link', { name: 'I have a code' }).click();
    // The link loaded no page of its own: the typed e-mail is still there, waiting for the app.
    expect(pathOf(page)).toBe('/login');
    expect(await page.locator(`html[${STARTING_ATTRIBUTE}]`).count()).toBe(1);
    expect(await email.inputValue()).toBe('someone.early@example.com');

    await scripts.release();
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(pathOf(page)).toBe('/login?step=code');
    expect(await page.getByLabel(/^E-mail/).inputValue()).toBe('someone.early@example.com');
  });
});

describe('what the prerendered sign-in screen leaves for later', () => {
  /** Requests for the devices list (the catalogue), which the app loads with zod's schemas. */
  function watchCatalogue(target: Page) {
    const seen: string[] = [];
    target.on('request', (request) => {
      if (request.url().includes('devices-list')) seen.push(request.url());
    });
    return seen;
  }

  it('loads the catalogue only once the person does something on the page', async () => {
    const catalogue = watchCatalogue(page);
    const stylesheets: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'stylesheet') stylesheets.push(new URL(request.url()).pathname);
    });
    await page.goto(appUrl('/login'));
    const form = page.getByRole('form', { name: 'Sign in' });
    await expect.poll(() => reactOwns(form)).toBe(true);
    // The first screen's sheets are in the page whole: they are never downloaded and applied again.
    const inlined = await page
      .locator('link[rel="stylesheet"][disabled]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(inlined.length).toBeGreaterThan(0);
    // Idle moments come and go: an untouched page loads nothing more.
    await pageSettled(page);
    expect(catalogue).toEqual([]);
    expect(stylesheets.filter((sheet) => inlined.includes(sheet))).toEqual([]);

    await page.getByLabel(/^E-mail/).press('i');
    await expect.poll(() => catalogue.length, { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it('sends someone already signed in on to their home, whose loads the page no longer holds', async () => {
    await page.goto(appUrl('/login'));
    await signIn(page, INSTALLER);
    await page.waitForURL('**/landing');
    const catalogue = watchCatalogue(page);
    // A fresh load of the prerendered page, with nothing typed: the redirect lets the work go.
    await page.goto(appUrl('/login'));
    await page.waitForURL('**/landing');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(() => catalogue.length, { timeout: 10_000 }).toBeGreaterThan(0);
  });
});
