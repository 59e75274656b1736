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

describe('home, devices and users, as an installer', () => {
  it('shows the fleet overview and finds a device by serial from Home', async () => {
    const { page } = installer;
    await page.goto(appUrl('/landing'));
    await heading(page, 'Home').waitFor();
    await page.getByRole('heading', { name: 'Sites, those with problems first' }).waitFor();
    await page.getByRole('link', { name: 'See online devices' }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'screens-landing', () => heading(page, 'Home').waitFor());
    await page.getByLabel('Find a device by serial').fill('HX5K');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.waitForURL('**/devices-list?**');
    expect(new URL(page.url()).searchParams.get('q')).toBe('HX5K');
  });

  it('lists devices with their model names and opens one, with the place for Bluetooth configuration', async () => {
    const { page } = installer;
    await page.goto(appUrl('/devices-list'));
    await heading(page, 'Devices').waitFor();
    const table = page.getByRole('table', { name: 'Devices' });
    await table.getByText('Helios HX-5000 Hybrid Inverter').first().waitFor();
    await expectAccessible(page);
    await screenshots(page, 'screens-devices-list', () => heading(page, 'Devices').waitFor());
    const serial = await table
      .getByRole('link', { name: /^HX5K-/ })
      .first()
      .innerText();
    await table.getByRole('link', { name: serial }).click();
    await heading(page, serial).waitFor();
    expect(pathOf(page)).toBe(`/device-details/HX-5000?serial=${serial}`);
    await page.getByRole('region', { name: 'Configure over Bluetooth' }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'screens-device-details', () => heading(page, serial).waitFor());

    await page.goto(appUrl('/device-details/HX-5000?serial=HX5K-99-999999'));
    await heading(page, 'No device HX5K-99-999999').waitFor();
  });

  it('lists users, opens one and keeps what was typed when a save fails', async () => {
    const { page } = installer;
    await page.goto(appUrl('/users-list'));
    await heading(page, 'Users').waitFor();
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('cell', { name: 'owner@homeowner.example' }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'screens-users-list', () => heading(page, 'Users').waitFor());
    await table.getByRole('link', { name: 'Olivia Homeowner' }).click();
    await heading(page, 'Olivia Homeowner').waitFor();
    await page.getByRole('heading', { name: 'Sites' }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'screens-user-details', () => heading(page, 'Olivia Homeowner').waitFor());

    // An e-mail another account holds: the server refuses, the form keeps the typed values.
    await page.getByRole('button', { name: 'Edit user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit user' });
    await dialog.getByLabel(/^E-mail/).fill('installer@brightvolt.example');
    await dialog.getByLabel('Phone').fill('+1 512 555 0100');
    await dialog.getByRole('button', { name: 'Save user' }).click();
    await dialog.getByRole('alert').waitFor();
    await expect(dialog.getByLabel(/^E-mail/).inputValue()).resolves.toBe('installer@brightvolt.example');
    await expect(dialog.getByLabel('Phone').inputValue()).resolves.toBe('+1 512 555 0100');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Send access code' }).click();
    await page
      .getByRole('status')
      .filter({
        hasText: 'If owner@homeowner.example is an account you manage, an access code is on its way',
      })
      .waitFor();
  });

  it('invites an owner, who then appears in the list', async () => {
    const { page } = installer;
    await page.goto(appUrl('/users-list'));
    await page.getByRole('button', { name: 'Create owner' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create owner' });
    await dialog.getByRole('button', { name: 'Create owner' }).click();
    await dialog.getByText('Enter an e-mail address').waitFor();
    await dialog.getByLabel(/^E-mail/).fill('new.owner@example.com');
    await dialog.getByLabel(/^Name/).fill('Nia Newowner');
    await dialog.getByRole('button', { name: 'Create owner' }).click();
    await page
      .getByText('An invitation with an access code is on its way to new.owner@example.com')
      .waitFor();
    expect(pathOf(page)).toBe('/users-list?page=0&q=new.owner%40example.com');
    await page.getByRole('link', { name: 'Nia Newowner' }).click();
    await heading(page, 'Nia Newowner').waitFor();
    expect(pathOf(page)).toMatch(/^\/user-details\/\d+$/);
  });
});
