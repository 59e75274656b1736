import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, INSTALLER, launchChromium } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';

/** HX5K-24-000133, the first demo device, runs as a simulated device on a site of the installer's. */
const LIVE = 'HX5K-24-000133';

let browser: Browser;
let installer: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  installer = await signedInPage(browser, INSTALLER);
});
afterAll(async () => {
  await browser?.close();
});

describe('site details, monitoring', () => {
  it("shows each device's state and the site's power by role and energy per day", async () => {
    const { page } = installer;
    await page.goto(appUrl(`/device-details/HX-5000?serial=${LIVE}`));
    await heading(page, LIVE).waitFor();
    const siteLink = page.getByRole('region', { name: 'Device' }).getByRole('link').first();
    const site = (await siteLink.innerText()).trim();
    await siteLink.click();
    await heading(page, site).waitFor();
    const states = page.getByRole('table', { name: `Devices now at ${site}` });
    await states.getByRole('row').filter({ hasText: LIVE }).waitFor();
    const charts = page.getByRole('region', { name: 'Power and energy' });
    const power = charts.getByRole('slider', { name: /^Power: / });
    await power.waitFor();
    await expect(
      charts.getByRole('region', { name: 'Power' }).locator('figcaption').innerText(),
    ).resolves.toMatch(
      /^Last 24 hours\. Production: minimum [\d,.]+ W, maximum [\d,.]+ W, latest [\d,.]+ W \(.*\)\. Consumption: /,
    );
    await charts.getByRole('region', { name: 'Energy per day' }).locator('figcaption').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'monitoring-site', () => power.waitFor());
    expect(installer.errors).toEqual([]);
  });
});
