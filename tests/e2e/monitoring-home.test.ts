import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, appUrl, launchChromium } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';

/**
 * Home as the fleet overview, against the real server with the demo data (a week of history, four
 * devices that stopped reporting, their alarms): each number links to the list it counts, and that
 * list holds as many rows.
 */
let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  admin = await signedInPage(browser, ADMIN);
});
afterAll(async () => {
  await browser?.close();
});

/** The number shown on the overview's card `label`. */
async function count(page: Page, label: string): Promise<number> {
  const card = page.getByRole('region', { name: label, exact: true });
  return Number((await card.locator('p').nth(1).innerText()).replace(/[^\d.]/g, ''));
}

/** The total the list's pager names ("1–4 of 4 · page 1 of 1"), 0 for "No results". */
async function listTotal(page: Page): Promise<number> {
  const text = await page
    .getByRole('navigation', { name: 'Pages' })
    .getByText(/of \d+|No results/)
    .innerText();
  return Number(/of (\d+) ·/.exec(text)?.[1] ?? 0);
}

describe('Home, the fleet overview', () => {
  it('counts devices offline, never connected, in alarm and open alarms, each linking to a list of as many', async () => {
    const { page } = admin;
    await page.goto(appUrl('/landing'));
    await heading(page, 'Home').waitFor();
    await page.getByRole('region', { name: 'Devices offline', exact: true }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'monitoring-home', () => heading(page, 'Home').waitFor());

    const links: [string, string, RegExp, string][] = [
      ['Devices offline', 'See offline devices', /devices-list\?.*state=offline/, 'Devices offline'],
      ['Devices in alarm', 'See devices in alarm', /devices-list\?.*state=alarm/, 'Devices in alarm'],
      ['Open alarms', 'See open alarms', /alarms\?.*state=open/, 'Alarms'],
    ];
    for (const [label, link, url, title] of links) {
      await page.goto(appUrl('/landing'));
      await page.getByRole('region', { name: label, exact: true }).waitFor();
      const shown = await count(page, label);
      await page.getByRole('link', { name: link }).click();
      await page.waitForURL(url);
      await heading(page, title).waitFor();
      expect(await listTotal(page), `${label} on Home and in its list`).toBe(shown);
    }
    // The demo's stopped devices are offline, most never connected, and some devices carry alarms.
    await page.goto(appUrl('/landing'));
    await page.getByRole('region', { name: 'Devices offline', exact: true }).waitFor();
    expect(await count(page, 'Devices offline')).toBeGreaterThanOrEqual(2);
    expect(await count(page, 'Devices in alarm')).toBeGreaterThanOrEqual(1);
    const never = page.getByRole('link', { name: /^[\d,]+ never connected$/ });
    const neverCount = Number((await never.innerText()).replace(/\D/g, ''));
    expect(neverCount).toBeGreaterThan(0);
    await never.click();
    await heading(page, 'Devices never connected').waitFor();
    expect(await listTotal(page)).toBe(neverCount);
  });

  it('lists open alarms newest first and the sites with problems first, linking to them', async () => {
    const { page } = admin;
    await page.goto(appUrl('/landing'));
    const alarms = page.getByRole('region', { name: 'Open alarms, newest first' });
    const items = alarms.getByRole('listitem');
    await items.first().waitFor();
    expect(await items.count()).toBeGreaterThan(0);
    const sites = page.getByRole('table', { name: 'Sites by problems' });
    const first = sites.getByRole('row').nth(1);
    // The first site has a problem: a device offline or in alarm.
    const offline = Number(await first.locator('td').nth(1).innerText());
    const inAlarm = Number(await first.locator('td').nth(2).innerText());
    expect(offline + inAlarm).toBeGreaterThan(0);
    const name = await first.getByRole('link').first().innerText();
    await first.getByRole('link').first().click();
    await heading(page, name).waitFor();
    expect(admin.errors).toEqual([]);
  });
});
