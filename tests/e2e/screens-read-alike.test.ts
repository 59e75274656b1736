import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIRMWARE } from '../../contracts/firmware.ts';
import { expectAccessible } from './axe.ts';
import { ADMIN, appUrl, INSTALLER, launchChromium, pathOf, signIn } from './browser.ts';
import { heading, PHONE, screenshots, signedInPage, WIDE } from './screens-helpers.ts';
import { deviceConnected } from './server-log.ts';
import { accessToken, configCall } from './service-calls.ts';

let browser: Browser;
let installer: { context: BrowserContext; page: Page; errors: string[] };
let admin: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  installer = await signedInPage(browser, INSTALLER);
  admin = await signedInPage(browser, ADMIN);
});
afterAll(async () => {
  await browser?.close();
});

/** "Nov 26, 2026", and a time in 12-hour form with AM or PM (specification §9). */
const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;
const DATE_TIME = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)$/;
/** The simulated device `npm start` runs first, on the installer's first site. */
const ONLINE = 'HX5K-24-000133';

const headers = async (page: Page, table: string) =>
  page.getByRole('table', { name: table }).getByRole('columnheader').allInnerTexts();

describe('screens that read alike', () => {
  it('writes dates one way, shows no id columns, and names devices without repeating the model', async () => {
    const { page } = installer;
    await page.goto(appUrl('/devices-list'));
    const devices = page.getByRole('table', { name: 'Devices' });
    await devices.waitFor();
    expect(await headers(page, 'Devices')).toEqual([
      'Serial',
      'Model',
      'Name',
      'Site',
      'Installed',
      'Firmware',
    ]);
    const installed = await devices.locator('tbody tr td:nth-child(5)').first().innerText();
    expect(installed).toMatch(DATE);
    const rows = await devices
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      );
    // (Rows of a long list are virtual: the spacer rows have no cells of their own.)
    const devicesShown = rows.filter((cells) => cells.length === 6);
    expect(devicesShown.length).toBeGreaterThan(0);
    for (const [, model = '', name = ''] of devicesShown) expect(name).not.toContain(model);

    await page.goto(appUrl('/sites-list'));
    await page.getByRole('table', { name: 'Sites' }).waitFor();
    expect(await headers(page, 'Sites')).not.toContain('Site id');
    await page.goto(appUrl('/users-list'));
    await page.getByRole('table', { name: 'Users' }).waitFor();
    expect(await headers(page, 'Users')).not.toContain('User id');

    await page.goto(appUrl(`/device-details/HX-5000?serial=${ONLINE}`));
    await heading(page, ONLINE).waitFor();
    const fact = page.getByText('Installed', { exact: true }).locator('xpath=following-sibling::*[1]');
    expect(await fact.innerText()).toMatch(DATE_TIME);
  });

  it("writes every date in the reader's language, one way on every screen", async () => {
    // A browser set to German: the same format-date writes "25. Nov. 2026, 1:05 PM" everywhere
    // (times stay 12-hour, specification §9); a screen formatting on its own would differ.
    const context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce', locale: 'de-DE' });
    const DE_DATE = /^\d{1,2}\. \p{L}{3,4}\.? \d{4}$/u;
    const DE_DATE_TIME = /^\d{1,2}\. \p{L}{3,4}\.? \d{4}, \d{1,2}:\d{2} (AM|PM)$/u;
    // What happened at a site is on the site's clock, its zone named when the browser's differs.
    const DE_SITE_TIME =
      /^\d{1,2}\. \p{L}{3,4}\.? \d{4}, \d{1,2}:\d{2} (AM|PM)( (\p{Lu}{2,5}|GMT[+-][\d:]+))?$/u;
    try {
      const page = await context.newPage();
      await page.goto(appUrl('/login'));
      await signIn(page, INSTALLER);
      await page.waitForURL('**/landing');
      await page.goto(appUrl('/devices-list'));
      const installed = page.getByRole('table', { name: 'Devices' }).locator('tbody tr td:nth-child(5)');
      expect(await installed.first().innerText()).toMatch(DE_DATE);
      await page.goto(appUrl('/alarms'));
      const raised = page.getByRole('table', { name: 'Alarms' }).locator('tbody tr td:nth-child(1)');
      expect(await raised.first().innerText()).toMatch(DE_SITE_TIME);
      await page.goto(appUrl(`/device-details/HX-5000?serial=${ONLINE}`));
      await heading(page, ONLINE).waitFor();
      const fact = page.getByText('Installed', { exact: true }).locator('xpath=following-sibling::*[1]');
      expect(await fact.innerText()).toMatch(DE_DATE_TIME);
      // Live values: "Last reading 3 s ago (25. Nov. 2026, 1:05 PM)."
      const reading = page.getByText(/^Last reading .* \((.*)\)\.$/);
      const at = /\((.*)\)\.$/.exec(await reading.innerText())?.[1] ?? '';
      expect(at).toMatch(DE_DATE_TIME);
    } finally {
      await context.close();
    }
  });

  it("shows the same Online badge in a site's device table as in the devices list", async () => {
    const { page } = installer;
    await deviceConnected(ONLINE);
    await page.goto(appUrl('/site-details/1'));
    await page
      .getByRole('table', { name: /^Devices at / })
      .getByRole('row', { name: new RegExp(ONLINE) })
      .getByText('Online', { exact: true })
      .waitFor();
    const badge = page.getByRole('table', { name: /^Devices at / }).getByText('Online', { exact: true });
    const style = await badge.evaluate((el) => getComputedStyle(el).backgroundColor);
    await page.goto(appUrl(`/devices-list?q=${ONLINE}`));
    const listBadge = page.getByRole('table', { name: 'Devices' }).getByText('Online', { exact: true });
    await listBadge.waitFor();
    expect(await listBadge.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(style);
    // Online, it has said its firmware version in its hello: the list and its details show it.
    const row = page.getByRole('table', { name: 'Devices' }).getByRole('row', { name: new RegExp(ONLINE) });
    expect(await row.locator('td').nth(5).innerText()).toBe(DEMO_FIRMWARE.running);
    await page.goto(appUrl(`/device-details/HX-5000?serial=${ONLINE}`));
    await heading(page, ONLINE).waitFor();
    const firmware = page.getByText('Firmware', { exact: true }).locator('xpath=following-sibling::*[1]');
    expect(await firmware.innerText()).toBe(DEMO_FIRMWARE.running);
  });

  it('ends creating an installer where creating an owner ends: the users list on that address', async () => {
    const { page } = admin;
    await page.goto(appUrl('/users-list'));
    await page.getByRole('button', { name: 'Create installer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create installer' });
    await dialog.getByLabel(/^E-mail/).fill('ivy.installer@example.com');
    await dialog.getByLabel(/^Name/).fill('Ivy Installer');
    await dialog.getByRole('button', { name: 'Create installer' }).click();
    await page
      .getByText('ivy.installer@example.com can sign in with the access code on its way to them.')
      .waitFor();
    expect(pathOf(page)).toBe('/users-list?page=0&q=ivy.installer%40example.com');
    await page.getByRole('link', { name: 'Ivy Installer' }).waitFor();
    // Site Manager pages as many rows as Sites.
    await page.goto(appUrl('/site-manager'));
    await page.getByText(/^1–50 of \d+ · page 1 of \d+$/).waitFor();
  });

  it("wraps a long unbroken site name on the site's page on a phone", async () => {
    const name = `Solar${'X'.repeat(60)}Farm`;
    // The admin's site: the installer's list keeps the count other test files expect.
    const token = await accessToken(ADMIN);
    const created = await configCall('POST', '/sites', {
      token,
      body: { name, displayAddress: '1 Long Name Rd, Austin, TX, US', latitude: 30.2, longitude: -97.7 },
    });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: number };
    const { page } = admin;
    await page.setViewportSize(PHONE);
    await page.goto(appUrl(`/site-details/${id}`));
    await heading(page, name).waitFor();
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(fits).toBe(true);
    await screenshots(page, 'site-long-name', () => heading(page, name).waitFor());
    await page.setViewportSize(WIDE);
  });

  it('shows the whole owner picker in Edit site', async () => {
    const { page } = installer;
    await page.goto(appUrl('/site-details/1'));
    await page.getByRole('button', { name: 'Edit site' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit site' });
    await dialog.getByLabel('Owner').and(page.locator('input')).click();
    const options = page.getByRole('listbox').last();
    await options.getByRole('option').first().waitFor();
    const box = await options.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && box.y + box.height <= viewport.height).toBe(true);
    await expectAccessible(page);
    // On a phone the chosen owner's name fits its field (the e-mail is written under it).
    await page.keyboard.press('Escape');
    await page.setViewportSize(PHONE);
    const field = dialog.getByLabel('Owner').and(page.locator('input'));
    expect(await field.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await dialog.getByText(/Olivia Homeowner: owner@homeowner\.example/).waitFor();
    await page.setViewportSize(WIDE);
    await screenshots(page, 'edit-site-owner-picker', async () => {
      if (!(await options.isVisible())) await dialog.getByLabel('Owner').and(page.locator('input')).click();
      await options.getByRole('option').first().waitFor();
    });
  });

  it('shows the device name as text in the Remote Debugger', async () => {
    const { page } = admin;
    await page.goto(appUrl('/remote-debugger'));
    await heading(page, 'Remote Debugger').waitFor();
    const found = page.getByRole('list', { name: 'Devices found' }).getByRole('button');
    await page.getByLabel('Search by serial').fill('HX5K');
    await found.first().click();
    await page.getByRole('radio', { name: 'Demo device' }).check();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const values = page.getByRole('table', { name: 'Decoded values' });
    await values.waitFor();
    await values.getByRole('row', { name: /^deviceName “.+”/ }).waitFor();
    expect(await values.getByRole('cell', { name: /^name_\d\d$/ }).count()).toBe(0);
  });

  it('links "the dump format" on the SunSpec page, and says why "Add model definitions…" waits', async () => {
    const { page } = installer;
    await page.goto(appUrl('/sunspec-config'));
    const link = page.getByRole('link', { name: 'see the dump format' });
    await link.waitFor();
    await link.click();
    expect(new URL(page.url()).hash).toBe('#dump-format');
    await page.getByRole('heading', { name: 'Dump format' }).waitFor();
    const add = page.getByRole('button', { name: 'Add model definitions…' });
    expect(await add.isDisabled()).toBe(true);
    const why = await add.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${why}"]`).innerText()).toMatch(/^Add model definitions once/);
    await expectAccessible(page);
  });
});
