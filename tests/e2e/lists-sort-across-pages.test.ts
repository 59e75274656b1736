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

/** The site names of the page shown, in order. */
async function siteNames(page: Page): Promise<string[]> {
  const table = page.getByRole('table', { name: 'Sites' });
  await table.waitFor();
  return table.locator('tbody tr td:first-child').allInnerTexts();
}

const lower = (names: string[]) => names.map((name) => name.toLowerCase());
const sorted = (names: string[]) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('lists sort across every page', () => {
  it('goes on from page 1 on page 2 of "Name A–Z", and shows the newest site first', async () => {
    const { page } = installer;
    await page.goto(appUrl('/sites-list'));
    await heading(page, 'Sites').waitFor();
    await page.getByLabel('Sort by').and(page.locator('input')).click();
    await page.getByRole('option', { name: 'Name A–Z' }).click();
    await page.waitForURL(/sort=name/);
    await page.getByText(/^1–50 of 70 · page 1 of 2$/).waitFor();
    const first = lower(await siteNames(page));
    expect(first).toEqual(sorted(first));
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText(/^51–70 of 70 · page 2 of 2$/).waitFor();
    expect(pathOf(page)).toBe('/sites-list?page=1&sort=name');
    const second = lower(await siteNames(page));
    expect(second).toEqual(sorted(second));
    // Page 2 goes on where page 1 ended: every name on it comes after every name on page 1.
    expect(sorted([...first, ...second])).toEqual([...first, ...second]);

    await page.getByLabel('Sort by').and(page.locator('input')).click();
    await page.getByRole('option', { name: 'Newest first' }).click();
    // A new sort starts again at page 1.
    await page.getByText(/^1–50 of 70 · page 1 of 2$/).waitFor();
    expect(pathOf(page)).toBe('/sites-list?page=0&sort=-id');
    const newest = (await siteNames(page))[0];
    await page.goto(appUrl('/landing'));
    const homeNewest = page.getByRole('region', { name: 'Newest sites' }).getByRole('link').first();
    expect(await homeNewest.innerText()).toBe(newest);
  });

  it('says that a page past the end does not exist and links to the first page', async () => {
    const { page } = installer;
    await page.goto(appUrl('/sites-list?page=9'));
    await page.getByText('Page 10 does not exist').waitFor();
    await page.getByText('This list has 2 pages of 50 rows.').waitFor();
    expect(await page.getByText(/451–/).count()).toBe(0);
    await expectAccessible(page);
    await screenshots(page, 'lists-page-past-the-end', () =>
      page.getByText('Page 10 does not exist').waitFor(),
    );
    await page.getByRole('button', { name: 'Go to the first page' }).click();
    await page.getByText(/^1–50 of 70 · page 1 of 2$/).waitFor();
    expect(pathOf(page)).toBe('/sites-list?page=0');
  });
});
