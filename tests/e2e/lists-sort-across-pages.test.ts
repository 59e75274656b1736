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
/** The installer's number of sites (70 seeded; other test files may have added some). */
async function siteTotal(page: Page): Promise<number> {
  const pager = page.getByText(/^1–50 of \d+ · page 1 of 2$/);
  await pager.waitFor();
  return Number(/of (\d+) ·/.exec(await pager.innerText())?.[1]);
}
const sorted = (names: string[]) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('lists sort across every page', () => {
  it('goes on from page 1 on page 2 of "Name A–Z", and shows the newest site first (ids falling)', async () => {
    const { page } = installer;
    await page.goto(appUrl('/sites-list'));
    await heading(page, 'Sites').waitFor();
    await page.getByLabel('Sort by').and(page.locator('input')).click();
    await page.getByRole('option', { name: 'Name A–Z' }).click();
    await page.waitForURL(/sort=name/);
    const total = await siteTotal(page);
    // The address changes before the sorted page arrives: wait for it (the first page of the
    // default order, by id, is not in name order, so this fails if the sort never comes).
    await expect
      .poll(async () => {
        const names = lower(await siteNames(page));
        return names.join('\n') === sorted(names).join('\n');
      })
      .toBe(true);
    const first = lower(await siteNames(page));
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText(`51–${total} of ${total} · page 2 of 2`).waitFor();
    expect(pathOf(page)).toBe('/sites-list?page=1&sort=name');
    const second = lower(await siteNames(page));
    expect(second).toEqual(sorted(second));
    // Page 2 goes on where page 1 ended: every name on it comes after every name on page 1.
    expect(sorted([...first, ...second])).toEqual([...first, ...second]);

    await page.getByLabel('Sort by').and(page.locator('input')).click();
    await page.getByRole('option', { name: 'Newest first' }).click();
    // A new sort starts again at page 1.
    await page.getByText(`1–50 of ${total} · page 1 of 2`).waitFor();
    expect(pathOf(page)).toBe('/sites-list?page=0&sort=-id');
    // Newest first: the sites' ids, given in the order they were created, fall down the page.
    const ids = await page.getByRole('link').evaluateAll((links) =>
      links
        .map((a) => /\/site-details\/(\d+)$/.exec(a.getAttribute('href') ?? '')?.[1])
        .filter(Boolean)
        .map(Number),
    );
    expect(ids.length).toBeGreaterThan(1);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
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
    await siteTotal(page);
    expect(pathOf(page)).toBe('/sites-list?page=0');
  });
});
