import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, INSTALLER, launchChromium } from './browser.ts';
import { heading, signedInPage } from './screens-helpers.ts';
import { accessToken, configCall } from './service-calls.ts';

let browser: Browser;
let installer: { context: BrowserContext; page: Page; errors: string[] };
let device: { modelId: string; serial: string; siteId: number };

beforeAll(async () => {
  browser = await launchChromium();
  installer = await signedInPage(browser, INSTALLER);
  const token = await accessToken(INSTALLER);
  const me = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string };
  const page = (await configCall('GET', `/fleet/devices/all/${me.sub}?page=0`, { token })).body as {
    items: { modelId: string; serial: string; siteId: number }[];
  };
  const first = page.items[0];
  if (!first) throw new Error('the installer has no device');
  device = first;
});
afterAll(async () => {
  await browser?.close();
});

describe('moving a device to another site', () => {
  it('says why the sites could not be read, and offers them by name and address after Try again', async () => {
    const { page } = installer;
    await page.goto(appUrl(`/device-details/${device.modelId}?serial=${device.serial}`));
    await heading(page, /.+/).waitFor();
    const failing = '**/config/fleet/sites/all/**';
    await page.route(failing, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'The database is busy; try again', code: 'unavailable' }),
      }),
    );
    await page.getByRole('button', { name: 'Move to another site' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move to another site' });
    await dialog.getByText('Your sites could not be loaded').waitFor();
    await dialog.getByText('The database is busy; try again').waitFor();
    expect(await dialog.getByText(/No other site/).count()).toBe(0);
    await expectAccessible(page);

    await page.unroute(failing);
    await dialog.getByRole('button', { name: 'Try again' }).click();
    const picker = dialog.getByRole('combobox', { name: 'New site' });
    await picker.click();
    const options = await page.getByRole('option').allInnerTexts();
    expect(options.length).toBeGreaterThan(0);
    // Each site by its name and address; no site is named by its id.
    for (const option of options) expect(option).toMatch(/^.+ · .+$/);
    for (const option of options) expect(option).not.toMatch(/\(\d+\)$/);
  });
});
