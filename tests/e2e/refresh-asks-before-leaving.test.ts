import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, INSTALLER, launchChromium, pathOf } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';

let browser: Browser;
let installer: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  installer = await signedInPage(browser, INSTALLER);
});
afterAll(async () => {
  await browser?.close();
});

const refreshButton = (page: Page) => page.getByRole('button', { name: 'Refresh devices list' });
const question = (page: Page) => page.getByRole('dialog', { name: 'Leave this screen?' });

describe('the devices-list refresh and the leave guard', () => {
  it('asks before the refresh throws away a typed form, and keeps it when the person stays', async () => {
    const { page } = installer;
    await page.goto(appUrl('/create-site'));
    await heading(page, 'Create site').waitFor();
    await page.getByLabel(/^Site name/).fill('Half-typed Solar');
    await refreshButton(page).click();
    await question(page).waitFor();
    await question(page).getByText('“New site” has changes that are not saved.').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'leave-question', () => question(page).waitFor());
    await question(page).getByRole('button', { name: 'Stay' }).click();
    await question(page).waitFor({ state: 'hidden' });
    expect(pathOf(page)).toBe('/create-site');
    expect(await page.getByLabel(/^Site name/).inputValue()).toBe('Half-typed Solar');
    // Nothing was refreshed: the button is still there to use.
    expect(await refreshButton(page).isEnabled()).toBe(true);

    // A link in the menu asks the same question.
    await page.getByRole('link', { name: 'Sites' }).click();
    await question(page).waitFor();
    await question(page).getByRole('button', { name: 'Stay' }).click();
    expect(pathOf(page)).toBe('/create-site');

    await refreshButton(page).click();
    await question(page).getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL('**/landing');
    await page
      .getByRole('status')
      .filter({
        hasText: /^Devices list v7 is up to date\. You can check again at \d{1,2}:\d{2}:\d{2} (AM|PM)\.$/,
      })
      .waitFor();
    expect(await refreshButton(page).isDisabled()).toBe(true);
    await screenshots(page, 'refresh-up-to-date', () =>
      page.getByText(/Devices list v7 is up to date/).waitFor(),
    );
  });

  it('refreshes at once when nothing would be lost, and the first keyboard stop after the skip link is Home', async () => {
    const { page } = installer;
    await page.clock.install();
    await page.goto(appUrl('/sites-list'));
    await heading(page, 'Sites').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Home');
    await refreshButton(page).click();
    await page.waitForURL('**/landing');
    await page.getByText(/Devices list v7 is up to date/).waitFor();
    expect(await question(page).count()).toBe(0);
    await page.clock.runFor(20_000);
    await expect.poll(() => refreshButton(page).isEnabled()).toBe(true);
    expect(await page.getByText(/You can check again/).count()).toBe(0);
  });
});
