import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, INSTALLER, launchChromium } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';
import { deviceConnected } from './server-log.ts';

/**
 * The server under test is started as `npm start` starts it: with the demo data, its first four
 * devices run as simulated devices over the device socket. HX5K-24-000133 is the first of them,
 * on a site of the installer's.
 */
const ONLINE = 'HX5K-24-000133';

let browser: Browser;
let installer: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  installer = await signedInPage(browser, INSTALLER);
  // The simulated devices start with the server: the screens are opened once it holds the socket.
  await deviceConnected(ONLINE);
});
afterAll(async () => {
  await browser?.close();
});

describe('devices online, as an installer', () => {
  it('marks a connected device Online in the devices list, and no other', async () => {
    const { page } = installer;
    const table = page.getByRole('table', { name: 'Devices' });
    const row = (serial: string) => table.getByRole('row', { name: new RegExp(serial) });
    await page.goto(appUrl('/devices-list?q=HX5K-24'));
    await row(ONLINE).getByText('Online', { exact: true }).waitFor();
    const rows = await table.getByRole('row').count();
    // One badge in the list: the other HX5K-24 devices of the installer are not connected.
    expect(rows).toBeGreaterThan(2);
    await expect(table.getByText('Online', { exact: true }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await screenshots(page, 'devices-online-list', () => heading(page, 'Devices').waitFor());
  });

  it('shows the badge beside the serial on device details', async () => {
    const { page } = installer;
    await page.goto(appUrl(`/device-details/HX-5000?serial=${ONLINE}`));
    await page.getByRole('main').getByText('Online', { exact: true }).waitFor();
    await heading(page, ONLINE).waitFor();
    await expectAccessible(page);
    expect(installer.errors).toEqual([]);
  });
});
