import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, launchChromium, signIn } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';
import { configCall, createInstaller } from './service-calls.ts';

let browser: Browser;
/** An installer of this test's own, so that changing the password touches no other test's sign-in. */
const ME = { email: 'pat.profile@solarpros.example', password: 'Profile#2026', name: 'Pat Profile' };
let me: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  await createInstaller(ME);
  me = await signedInPage(browser, ME);
});
afterAll(async () => {
  await browser?.close();
});

describe('Account: Profile and Change password', () => {
  it('changes my name, which the menu shows at once', async () => {
    const { page } = me;
    // "Profile" is one entry of the menu: one's own page, with the alarm mail switch.
    await page.getByRole('link', { name: 'Profile' }).click();
    await heading(page, ME.name).waitFor();
    await page.getByRole('switch', { name: 'Alarm mail' }).waitFor();
    expect(await page.getByRole('link', { name: /My details/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Profile' });
    await dialog.getByLabel(/^Name/).fill('Pat Q. Profile');
    await dialog.getByLabel(/^Phone/).fill('+1 512 555 0142');
    await expectAccessible(page);
    await screenshots(page, 'account-profile', () => dialog.getByLabel(/^Name/).waitFor());
    await dialog.getByRole('button', { name: 'Save profile' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('user-name').filter({ hasText: 'Pat Q. Profile' }).waitFor();
    await heading(page, 'Pat Q. Profile').waitFor();
  });

  it('changes my password with the current one and stays signed in; the old one no longer works', async () => {
    const { page } = me;
    await page.getByRole('button', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByLabel(/^Current password/).fill('not-my-password');
    await dialog.getByLabel(/^New password \*/).fill('Sunny-roof#2027');
    await dialog.getByLabel(/^New password again/).fill('Sunny-roof#2027');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The current password is wrong' }).waitFor();
    await expectAccessible(page);
    await dialog.getByLabel(/^Current password/).fill(ME.password);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByText('Your other phones and computers were signed out; this one stays signed in.')
      .waitFor();
    // Still signed in here: the next screen loads.
    await page
      .getByRole('navigation', { name: 'Fleet Manager' })
      .getByRole('link', { name: 'Sites' })
      .click();
    await heading(page, 'Sites').waitFor();
    const old = await configCall('POST', '/auth/v2/login', {
      body: { main_email: ME.email, password: ME.password },
    });
    expect(old.status).toBe(401);
    const other = await browser.newContext();
    const fresh = await other.newPage();
    await fresh.goto(appUrl('/login'));
    await signIn(fresh, { email: ME.email, password: 'Sunny-roof#2027' });
    await fresh.waitForURL('**/landing');
    await other.close();
  });

  it('changes my sign-in e-mail with the current password and stays signed in with it', async () => {
    const { page } = me;
    const next = 'pat.q.profile@solarpros.example';
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Edit profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Profile' });
    await dialog.getByLabel(/^Sign-in e-mail/).fill(next);
    await dialog.getByRole('button', { name: 'Save profile' }).click();
    await dialog.getByText('Enter your current password to change your sign-in e-mail').waitFor();
    await dialog.getByLabel(/^Current password/).fill('Sunny-roof#2027');
    await dialog.getByRole('button', { name: 'Save profile' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Signed in again with the new e-mail: the page shows it and the next screen loads.
    await page.getByText(next, { exact: true }).first().waitFor();
    await page
      .getByRole('navigation', { name: 'Fleet Manager' })
      .getByRole('link', { name: 'Sites' })
      .click();
    await heading(page, 'Sites').waitFor();
    const old = await configCall('POST', '/auth/v2/login', {
      body: { main_email: ME.email, password: 'Sunny-roof#2027' },
    });
    expect(old.status).toBe(401);
  });
});
