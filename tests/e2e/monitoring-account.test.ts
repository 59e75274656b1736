import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { launchChromium, OWNER } from './browser.ts';
import { signedInPage } from './screens-helpers.ts';

let browser: Browser;
let owner: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  owner = await signedInPage(browser, OWNER);
});
afterAll(async () => {
  await browser?.close();
});

describe('alarm mail', () => {
  it('is off by default, and a person turns it on for themself from the menu’s Account', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/user-details/**');
    const toggle = page.getByRole('switch', { name: 'Alarm mail' });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click({ force: true });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    // Stored by the service: a reload shows it on.
    await page.reload();
    await page.getByRole('switch', { name: 'Alarm mail' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Alarm mail' }).isChecked()).toBe(true);
    await expectAccessible(page);
    expect(owner.errors).toEqual([]);
  });
});
