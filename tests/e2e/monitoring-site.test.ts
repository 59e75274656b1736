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
  // Far from the demo's sites in Texas: the site's clock and the browser's differ.
  installer = await signedInPage(browser, INSTALLER, { timezoneId: 'Europe/Berlin' });
});

/** The site of the live device, opened from the device's page. */
async function openLiveSite(page: Page): Promise<string> {
  await page.goto(appUrl(`/device-details/HX-5000?serial=${LIVE}`));
  await heading(page, LIVE).waitFor();
  const siteLink = page.getByRole('region', { name: 'Device' }).getByRole('link').first();
  const site = (await siteLink.innerText()).trim();
  await siteLink.click();
  await heading(page, site).waitFor();
  return site;
}

/** The figure of "Produced" in "Energy today" (the page shows its label in capitals). */
const PRODUCED = /Produced\s+([\d,.]+) kWh/i;

/** A number as the page writes it ("1,234.5") as a number. */
const numberOf = (text: string | undefined) => Number((text ?? '').replace(/,/g, ''));
afterAll(async () => {
  await browser?.close();
});

describe('site details, monitoring', () => {
  it("shows each device's state and the site's power by role and energy per day", async () => {
    const { page } = installer;
    const site = await openLiveSite(page);
    const states = page.getByRole('table', { name: `Devices now at ${site}` });
    await states.getByRole('row').filter({ hasText: LIVE }).waitFor();
    const charts = page.getByRole('region', { name: 'Power and energy' });
    const power = charts.getByRole('slider', { name: /^Power: / });
    await power.waitFor();
    await expect(
      charts.getByRole('region', { name: 'Power' }).locator('figcaption').innerText(),
    ).resolves.toMatch(
      /^Last 24 hours\. Solar production: minimum [\d,.]+ W, maximum [\d,.]+ W \(.+\), latest [\d,.]+ W \(.*\)\. Home consumption: /,
    );
    await charts.getByRole('region', { name: 'Energy per day' }).locator('figcaption').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'monitoring-site', () => power.waitFor());
    expect(installer.errors).toEqual([]);
  });
});

describe('a site in America/Chicago, seen from Berlin', () => {
  it("counts today's energy from midnight at the site, and the chart's last day is that day so far", async () => {
    const { page } = installer;
    await openLiveSite(page);
    const facts = page.getByRole('region', { name: 'Site' });
    await expect(facts.innerText()).resolves.toMatch(/Time zone\s+America\/Chicago \(C[SD]T\)/i);
    const today = page.getByRole('region', { name: 'Energy today' });
    await today.waitFor();
    const chicagoDate = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Chicago',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    }).format(Date.now());
    const todayText = await today.innerText();
    expect(todayText).toContain(`since midnight at the site (${chicagoDate}, 12:00 AM C`);
    // Nothing yet before sunrise at the site: the figure is there, whatever the hour of the run.
    expect(todayText).toMatch(PRODUCED);
    // The last bar of energy per day is the same day, from the same midnight, marked as so far.
    const energy = page.getByRole('region', { name: 'Energy per day' }).locator('figcaption');
    const latest = new RegExp(`latest ([\\d,.]+) kWh \\(${chicagoDate}, so far\\)`);
    await energy.filter({ hasText: latest }).waitFor();
    await page.getByText("Times and days are the site's: America/Chicago").waitFor();
  });

  it('draws today\'s bar of energy per day as much as "Energy today" says', async () => {
    const { page } = installer;
    await openLiveSite(page);
    const today = page.getByRole('region', { name: 'Energy today' });
    await today.waitFor();
    const produced = numberOf(PRODUCED.exec(await today.innerText())?.[1]);
    const energy = page.getByRole('region', { name: 'Energy per day' }).locator('figcaption');
    const latest = /latest ([\d,.]+) kWh \([^)]*, so far\)/;
    await energy.filter({ hasText: latest }).waitFor();
    const bar = numberOf(latest.exec(await energy.innerText())?.[1]);
    // The live device adds a little every 10 s between the two reads.
    expect(Math.abs(bar - produced)).toBeLessThan(0.2);
  });

  it('names the direction of every flow now', async () => {
    const { page } = installer;
    await openLiveSite(page);
    const flow = page.getByRole('region', { name: 'Power now' });
    await flow.getByText(/^As of .* at the site, from \d+ of \d+ devices?\.$/).waitFor({ timeout: 60_000 });
    // As a screen reader reads it: the arrow is drawn, its word ("to") is there to be read.
    await expect(flow.getByTestId('direction-production').textContent()).resolves.toMatch(
      /^(producing, Solar to\s?Home|not producing)$/,
    );
    await expect(flow.getByTestId('direction-grid').textContent()).resolves.toMatch(
      /^(importing, Grid to\s?Home|exporting, Home to\s?Grid|idle)$/,
    );
    await expect(flow.getByTestId('direction-battery').textContent()).resolves.toMatch(
      /^(charging, Home to\s?Battery|discharging, Battery to\s?Home|idle)$/,
    );
    await expectAccessible(page);
    await screenshots(page, 'site-power-flow', () => flow.waitFor());
  });
});
