import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, INSTALLER, launchChromium, pathOf } from './browser.ts';
import { heading, PHONE, screenshots, WIDE } from './screens-helpers.ts';
import { accessToken, configCall } from './service-calls.ts';

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
  context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

/** The link of the newest code mail to `email`, as the server under test logged it. */
async function mailedLink(email: string): Promise<string> {
  const log = inject('serverLogPath');
  if (!log) throw new Error('the server log is needed to read the mail (not with E2E_BASE_URL)');
  const pattern = new RegExp(
    `^(http\\S+/login\\?step=code#email=${encodeURIComponent(email).replace(/[.+]/g, '\\$&')}&code=\\d{8})$`,
    'gm',
  );
  let link: string | undefined;
  await expect
    .poll(
      () => {
        link = [...readFileSync(log, 'utf8').matchAll(pattern)].at(-1)?.[1];
        return link;
      },
      { timeout: 20_000 },
    )
    .toBeTruthy();
  return link as string;
}

describe('a new user follows the link in their access-code mail', () => {
  it('opens "Choose your password" filled in, drops the code from the address, and is signed in', async () => {
    const email = 'nina.firsttime@example.com';
    const token = await accessToken(INSTALLER);
    const invited = await configCall('POST', '/fleet/users/create-owner', {
      token,
      body: { main_email: email, name: 'Nina Firsttime' },
    });
    expect(invited.status).toBe(202);
    const link = await mailedLink(email);
    // What a server sees of the link: no e-mail, no code.
    expect(`${new URL(link).pathname}${new URL(link).search}`).toBe('/login?step=code');
    const code = new URLSearchParams(new URL(link).hash.slice(1)).get('code');

    await page.goto(link.replace(/^http:\/\/localhost:\d+/, appUrl('')));
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(await page.getByLabel(/^E-mail/).inputValue()).toBe(email);
    expect(await page.getByLabel(/^Access code/).inputValue()).toBe(code);
    expect(pathOf(page)).toBe('/login?step=code');
    await expectAccessible(page);
    await screenshots(page, 'code-link-choose-password', () =>
      page.getByRole('heading', { name: 'Choose your password' }).waitFor(),
    );
    await page.getByLabel(/^New password/).fill('First-light#2026');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL('**/landing');
    await heading(page, 'Home').waitFor();
    await page.getByText('Welcome, Nina Firsttime.').waitFor();
  });

  it('offers "I have a code" on the sign-in screen, and the step survives a reload', async () => {
    await page.goto(appUrl('/login'));
    await page.getByLabel(/^E-mail/).fill('someone.waiting@example.com');
    await page.getByRole('link', { name: 'I have a code' }).click();
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(pathOf(page)).toBe('/login?step=code');
    expect(await page.getByLabel(/^E-mail/).inputValue()).toBe('someone.waiting@example.com');
    // The phone drops the page while the mail app is open: it comes back on the same step.
    await page.reload();
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(await page.getByLabel(/^E-mail/).inputValue()).toBe('someone.waiting@example.com');
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(pathOf(page)).toBe('/login');
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});
