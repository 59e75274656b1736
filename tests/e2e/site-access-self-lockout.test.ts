import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, INSTALLER, launchChromium } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';
import { accessToken, configCall } from './service-calls.ts';

let browser: Browser;
let installer: { context: BrowserContext; page: Page; errors: string[] };
/** Installer A's first site, which Olivia Homeowner owns (the seed's site 1). */
const SITE = 1;

beforeAll(async () => {
  browser = await launchChromium();
  installer = await signedInPage(browser, INSTALLER);
});
afterAll(async () => {
  await browser?.close();
});

async function openSite(page: Page) {
  await page.goto(appUrl(`/site-details/${SITE}`));
  await heading(page, /.+/).waitFor();
  const title = await heading(page, /.+/).innerText();
  await page.getByRole('table', { name: `People with access to ${title}` }).waitFor();
  return title;
}

describe('an installer cannot lock themself out of a site', () => {
  it('says so before saving when they untick their own Installer role, and the service refuses it too', async () => {
    const { page } = installer;
    await openSite(page);
    const mine = page.getByRole('row', { name: /Sam Solarpros/ });
    await mine.getByRole('checkbox', { name: 'Installer' }).uncheck();
    await page
      .getByRole('alert')
      .filter({ hasText: 'You cannot take away your own Installer role' })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Save roles of Sam Solarpros' }).isDisabled()).toBe(true);
    // Their own access switch cannot be switched off here either.
    expect(await page.getByRole('switch', { name: 'Access for Sam Solarpros' }).isDisabled()).toBe(true);
    await expectAccessible(page);
    // The phone shows cards in place of the table: the box is unticked again there.
    await screenshots(page, 'site-access-self-lockout', async () => {
      const box = page
        .locator('tr, li')
        .filter({ hasText: 'Sam Solarpros' })
        .getByRole('checkbox', { name: 'Installer' });
      await box.uncheck();
      await page.getByRole('alert').filter({ hasText: 'You cannot take away' }).waitFor();
    });
    // Asked directly, the service answers 409 and says who can do it.
    const token = await accessToken(INSTALLER);
    const me = (await configCall('GET', `/fleet/sites/${SITE}`, { token })).body as {
      access: { userId: number; main_email: string }[];
    };
    const myId = me.access.find((row) => row.main_email === INSTALLER.email)?.userId;
    const refused = await configCall('PUT', '/fleet/site-access/set-access', {
      token,
      body: { siteId: SITE, userId: myId, access: false },
    });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        code: 'self_lockout',
        message: expect.stringMatching(/another installer of this site or an admin/i),
      },
    });
  });

  it("asks before switching off someone else's access, naming them", async () => {
    const { page } = installer;
    const site = await openSite(page);
    const owner = page.getByRole('switch', { name: 'Access for Olivia Homeowner' });
    await owner.click({ force: true });
    const dialog = page.getByRole('dialog', { name: 'Switch off access for Olivia Homeowner?' });
    await dialog.waitFor();
    await dialog.getByText(`Olivia Homeowner (owner@homeowner.example) will no longer see ${site}`).waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Keep access' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await owner.isChecked()).toBe(true);

    await owner.click({ force: true });
    await dialog.getByRole('button', { name: 'Switch off access for Olivia Homeowner' }).click();
    await page.getByRole('switch', { name: 'Access for Olivia Homeowner', checked: false }).waitFor();
    // Back on again, without a question.
    await page.getByRole('switch', { name: 'Access for Olivia Homeowner' }).click({ force: true });
    await page.getByRole('switch', { name: 'Access for Olivia Homeowner', checked: true }).waitFor();
  });
});
