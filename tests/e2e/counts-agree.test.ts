import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, appUrl, INSTALLER, launchChromium } from './browser.ts';
import { heading, signedInPage } from './screens-helpers.ts';

/**
 * The same count on two screens is the same number, as a person reads them: Home's open alarms,
 * devices offline and sites against the Alarms list, the devices list and Site Manager (company
 * staff) or the Sites list, over the real server and app with the demo data (alarms of devices
 * never connected, of sites all of whose devices are silent, acknowledged and not).
 */
let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
let installer: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  admin = await signedInPage(browser, ADMIN);
  installer = await signedInPage(browser, INSTALLER);
});
afterAll(async () => {
  await browser?.close();
});

/** The number on Home's card `label`. */
async function card(page: Page, label: string): Promise<number> {
  const region = page.getByRole('region', { name: label, exact: true });
  return Number((await region.locator('p').nth(1).innerText()).replace(/\D/g, ''));
}

/** The total a list's pager names ("1–20 of 366 · page 1 of 19"), 0 for "No results". */
async function listTotal(page: Page): Promise<number> {
  const text = await page
    .getByRole('navigation', { name: 'Pages' })
    .getByText(/of [\d,]+ ·|No results/)
    .innerText();
  return Number((/of ([\d,]+) ·/.exec(text)?.[1] ?? '0').replace(/\D/g, ''));
}

/** What Home says: open alarms, devices offline, and how many sites. */
async function home(page: Page) {
  await page.goto(appUrl('/landing'));
  await page.getByRole('region', { name: 'Open alarms', exact: true }).waitFor();
  const sites = await page.getByRole('link', { name: /^Across your [\d,]+ sites?$/ }).innerText();
  const seeAll = await page.getByRole('link', { name: /^See all [\d,]+ open alarms$/ }).innerText();
  return {
    openAlarms: await card(page, 'Open alarms'),
    seeAllOpen: Number(seeAll.replace(/\D/g, '')),
    offline: await card(page, 'Devices offline'),
    sites: Number(sites.replace(/\D/g, '')),
  };
}

async function totalAt(page: Page, path: string, title: string): Promise<number> {
  await page.goto(appUrl(path));
  await heading(page, title).waitFor();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  return listTotal(page);
}

describe('counts on Home, Alarms, the devices list and Site Manager', () => {
  it('agree for company staff', async () => {
    const { page } = admin;
    const shown = await home(page);
    expect(shown.openAlarms).toBeGreaterThan(0);
    expect(shown.seeAllOpen, 'the open alarms card and "See all … open alarms"').toBe(shown.openAlarms);
    expect(await totalAt(page, '/alarms?page=0&state=open', 'Alarms'), 'Alarms').toBe(shown.openAlarms);
    expect(await totalAt(page, '/devices-list?page=0&state=offline', 'Devices offline')).toBe(shown.offline);
    expect(await totalAt(page, '/site-manager', 'Site Manager'), 'Site Manager').toBe(shown.sites);
    expect(await totalAt(page, '/sites-list', 'Sites'), 'Sites').toBe(shown.sites);
    expect(admin.errors).toEqual([]);
  });

  it('agree for an installer', async () => {
    const { page } = installer;
    const shown = await home(page);
    expect(shown.seeAllOpen).toBe(shown.openAlarms);
    expect(await totalAt(page, '/alarms?page=0&state=open', 'Alarms')).toBe(shown.openAlarms);
    expect(await totalAt(page, '/devices-list?page=0&state=offline', 'Devices offline')).toBe(shown.offline);
    expect(await totalAt(page, '/sites-list', 'Sites')).toBe(shown.sites);
    expect(installer.errors).toEqual([]);
  });
});
