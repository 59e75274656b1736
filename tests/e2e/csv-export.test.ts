import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, downloaded, INSTALLER, launchChromium } from './browser.ts';
import { signedInPage } from './screens-helpers.ts';

let browser: Browser;
let installer: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  installer = await signedInPage(browser, INSTALLER);
});
afterAll(async () => {
  await browser?.close();
});

/** Clicks an export button and answers the file Chromium saved: its name and its lines. */
async function download(page: Page, button: string) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  const text = (await downloaded(file)).toString('utf8');
  return { name: file.suggestedFilename(), lines: text.split('\r\n').filter(Boolean) };
}

describe('CSV export in the browser', () => {
  it('saves every site of the list, then a site’s devices and people from its details', async () => {
    const { page } = installer;
    await page.goto(appUrl('/sites-list'));
    // Other files of the suite create sites on the same server: read the total the list shows.
    const range = page.getByText(/^1–50 of \d+ · page 1 of \d+$/);
    await range.waitFor();
    const total = Number(/of (\d+) ·/.exec(await range.innerText())?.[1]);
    expect(total).toBeGreaterThan(50);
    const sites = await download(page, 'Export CSV');
    expect(sites.name).toBe('sites.csv');
    expect(sites.lines[0]).toBe('"Name","Address","Town","State","Site id"');
    expect(sites.lines).toHaveLength(total + 1);

    const first = page.getByRole('table', { name: 'Sites' }).getByRole('link').first();
    const name = await first.innerText();
    await first.click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await expectAccessible(page);
    const devices = await download(page, `Export CSV of the devices at ${name}`);
    expect(devices.lines[0]?.startsWith('"Serial","Model","Name"')).toBe(true);
    const shown = await page
      .getByRole('table', { name: `Devices at ${name}` })
      .getByRole('row')
      .count();
    expect(devices.lines).toHaveLength(shown);
    const people = await download(page, `Export CSV of the people with access to ${name}`);
    expect(people.lines[0]).toBe('"Name","E-mail","Site roles","Access"');
    expect(people.lines.some((line) => line.includes(INSTALLER.email))).toBe(true);
    expect(installer.errors).toEqual([]);
  });
});
