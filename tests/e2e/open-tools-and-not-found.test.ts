import { readdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, launchChromium, pathOf } from './browser.ts';
import { heading, PHONE, screenshots, WIDE } from './screens-helpers.ts';

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

describe('no dead ends', () => {
  it("shows the app's own not-found page for a mistyped serial, with a way back", async () => {
    await page.goto(appUrl('/device-details-old/NOPE-123'));
    await heading(page, 'No device NOPE-123').waitFor();
    expect(await page.getByText('Something went wrong!').count()).toBe(0);
    await expectAccessible(page);
    await screenshots(page, 'open-device-not-found', () => heading(page, 'No device NOPE-123').waitFor());
    await page.getByRole('link', { name: 'Pick a device by serial and model' }).click();
    await heading(page, 'Configure a device').waitFor();
    expect(pathOf(page)).toBe('/device-details-old');
  });

  it('offers the two tools that need no sign-in on the sign-in screen, and the picker opens a device', async () => {
    await page.goto(appUrl('/login'));
    await page.getByRole('link', { name: 'SunSpec configurator' }).waitFor();
    await page.getByRole('link', { name: 'Configure a device over Bluetooth (serial and model)' }).click();
    await heading(page, 'Configure a device').waitFor();
    await expectAccessible(page);
    await page.getByLabel('Serial number').fill('BX10-24-000001');
    await page.getByLabel('Model').and(page.locator('input')).click();
    await page.getByRole('option', { name: /\(HX-5000\)$/ }).click();
    await page.getByRole('button', { name: 'Open device' }).click();
    await page.getByText(/BX10-24-000001 is a serial number of .+, not of .+HX-5000/).waitFor();
    await screenshots(page, 'open-device-picker', () => page.getByText(/is a serial number of/).waitFor());
    await page.getByLabel('Serial number').fill('hx5k-24-000133');
    await page.getByRole('button', { name: 'Open device' }).click();
    await heading(page, 'Device details').waitFor();
    expect(pathOf(page)).toBe('/device-details-old/HX5K-24-000133');
    await page.goto(appUrl('/login'));
    await page.getByRole('link', { name: 'SunSpec configurator' }).click();
    await page.waitForURL('**/sunspec-config');
  });

  it('says what the open device page is for from its first paint, larger than anything drawn later', async () => {
    // On a phone, where the panel's texts wrap the most: the page's largest paint (what a person
    // waits for) is the build's markup, not the panel that comes with the catalogue.
    const phone = await browser.newContext({ viewport: PHONE });
    const phonePage = await phone.newPage();
    await phonePage.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { largestPaints: seen });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { element: Element | null })[])
          seen.push(entry.element?.textContent ?? '');
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await phonePage.goto(appUrl('/device-details-old/HX5K-24-000123'));
    await phonePage.getByRole('button', { name: 'Use demo device' }).waitFor();
    await phonePage.getByText(/^The demo device is a simulated/).waitFor();
    const largest = await phonePage.evaluate(
      () => (window as unknown as { largestPaints: string[] }).largestPaints,
    );
    expect(largest.at(-1)).toMatch(/^Configure the device over Bluetooth from this page/);
    await phone.close();
  });

  it('never downloads on the open device page what only someone signed in uses', async () => {
    // The chunks of the history, the templates and the service's calls: each is in the build (so
    // the names below still mean something), and none is asked for by a page with no sign-in.
    const signedInOnly = /^(signed-in-actors|templates-section|config-history-section|commissioning-api)-/;
    const built = readdirSync(new URL('../../dist/assets/', import.meta.url)).filter(
      (file) => signedInOnly.test(file) && file.endsWith('.js'),
    );
    expect(built).toHaveLength(4);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(appUrl('/device-details-old/HX5K-24-000123'));
    await page.getByText(/^The demo device is a simulated/).waitFor();
    await page.getByRole('button', { name: 'Use demo device' }).click();
    await page.getByText('Connected to the demo device').waitFor();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((path) => signedInOnly.test(path.split('/').pop() ?? ''))).toEqual([]);
  });
});
