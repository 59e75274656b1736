import type { Browser, Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, appUrl, INSTALLER, launchChromium } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** The installer's row in a site's access table, found by their e-mail. */
const installerRow = (page: Page) => page.getByRole('row').filter({ hasText: INSTALLER.email });

describe('Site Manager', () => {
  it("lets an admin change an installer's roles and switch their access, which the installer sees after a reload", async () => {
    const admin = await signedInPage(browser, ADMIN);
    const installer = await signedInPage(browser, INSTALLER);
    const a = admin.page;
    const i = installer.page;

    // The installer can edit sites 10 and 11 today.
    await i.goto(appUrl('/site-details/10'));
    const siteTen = await i.getByRole('heading', { level: 1 }).innerText();
    await i.getByRole('button', { name: 'Edit site' }).waitFor();

    await a.goto(appUrl('/site-manager'));
    await heading(a, 'Site Manager').waitFor();
    // With the pointer resting on a row, as after a click in the list: its link keeps 4.5:1 on the
    // row's hover grey.
    await a.getByRole('row').nth(1).hover();
    await expectAccessible(a);
    await a.getByLabel('Search all sites').fill(siteTen);
    await a.getByRole('button', { name: 'Search', exact: true }).click();
    await a.getByRole('button', { name: `Manage access to ${siteTen}` }).click();
    await a.getByRole('heading', { name: `Access to ${siteTen}` }).waitFor();
    await expectAccessible(a);
    await screenshots(a, 'screens-site-manager', () =>
      a.getByRole('heading', { name: `Access to ${siteTen}` }).waitFor(),
    );

    // Roles: installer and configurator become viewer only.
    const row = installerRow(a);
    await row.getByRole('checkbox', { name: 'Installer' }).uncheck();
    await row.getByRole('checkbox', { name: 'Configurator' }).uncheck();
    await row.getByRole('checkbox', { name: 'Viewer' }).check();
    await row.getByRole('button', { name: /^Save roles/ }).click();
    await installerRow(a)
      .getByRole('button', { name: /^Save roles/ })
      .and(a.locator('[disabled], [data-disabled]'))
      .waitFor();
    expect(await installerRow(a).getByRole('checkbox', { name: 'Viewer' }).isChecked()).toBe(true);

    await i.reload();
    await heading(i, siteTen).waitFor();
    await i.getByRole('row').filter({ hasText: INSTALLER.email }).getByText('viewer').waitFor();
    expect(await i.getByRole('button', { name: 'Edit site' }).count()).toBe(0);

    // Access: switched off (after saying yes to the question naming them), the installer no
    // longer sees the site.
    await installerRow(a).getByRole('switch', { name: `Access for Sam Solarpros` }).click();
    await a.getByRole('button', { name: 'Switch off access for Sam Solarpros' }).click();
    await installerRow(a).getByText('Off', { exact: true }).waitFor();
    await i.reload();
    await heading(i, "You don't have access to this site").waitFor();

    // And back on, with the roles they had.
    await installerRow(a).getByRole('switch', { name: `Access for Sam Solarpros` }).click();
    await installerRow(a).getByText('On', { exact: true }).waitFor();
    await i.reload();
    await heading(i, siteTen).waitFor();

    await admin.context.close();
    await installer.context.close();
  });

  it('finds a user to give access as the admin types, and an early answer never replaces a later one', async () => {
    const admin = await signedInPage(browser, ADMIN);
    const a = admin.page;
    // The first question (for "installer") is held back; every later one goes through.
    let held: Route | null = null;
    let heldRequest: Request | null = null;
    const seenHeld = new Promise<void>((seen) => {
      void a.route('**/fleet/user-list/**', async (route) => {
        const q = new URL(route.request().url()).searchParams.get('q');
        if (q === 'installer' && !held) {
          held = route;
          heldRequest = route.request();
          seen();
          return;
        }
        await route.continue();
      });
    });
    await a.goto(appUrl('/site-manager?site=10'));
    await a.getByRole('heading', { name: /^Access to / }).waitFor();
    const picker = a.getByRole('combobox', { name: 'Give a user access' });
    await picker.fill('installer');
    await seenHeld;
    // Typing again aborts the question on its way: the browser cancels its request.
    const aborted = a.waitForEvent('requestfailed', (request) => request === heldRequest);
    const latest = a.waitForResponse(
      (r) =>
        r.url().includes('/fleet/user-list/') && new URL(r.url()).searchParams.get('q') === 'owner@homeowner',
    );
    await picker.fill('owner@homeowner');
    await aborted;
    await latest;
    // The held answer is let go now, too late: it can no longer reach the page.
    await (held as Route | null)
      ?.fulfill({ json: { items: [], total: 0, page: 0, pageSize: 10 } })
      .catch(() => undefined);
    await a.getByRole('option', { name: /owner@homeowner\.example/ }).waitFor();
    expect(await a.getByRole('option', { name: /installer@/ }).count()).toBe(0);
    await expectAccessible(a);
    await admin.context.close();
  });

  it('tells an installer that Site Manager is for company staff', async () => {
    const installer = await signedInPage(browser, INSTALLER);
    await installer.page.goto(appUrl('/site-manager'));
    await heading(installer.page, "You don't have access to Site Manager").waitFor();
    await installer.context.close();
  });
});
