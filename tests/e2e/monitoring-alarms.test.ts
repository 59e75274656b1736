import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, appUrl, downloaded, launchChromium } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';

/**
 * The alarms screen against the real server with the demo data: its history holds a grid fault
 * that cleared, an inverter that ran hot (acknowledged), a battery left nearly empty and two
 * devices silent since yesterday, raised through the real alarm rules at seed time.
 */
let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  admin = await signedInPage(browser, ADMIN);
});
afterAll(async () => {
  await browser?.close();
});

/** Picks `option` in the select labelled `label`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).and(page.locator('input')).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const table = (page: Page) => page.getByRole('table', { name: 'Alarms' });
/** The texts of column `n` (from 1) of every row shown. */
const column = async (page: Page, n: number) =>
  (await table(page).getByRole('row').locator(`td:nth-child(${n})`).allInnerTexts()).map((t) => t.trim());
const pageRange = (page: Page) =>
  page.getByRole('navigation', { name: 'Pages' }).getByText(/of \d+|No results/);
const totalOf = async (page: Page) => Number(/of (\d+) ·/.exec(await pageRange(page).innerText())?.[1] ?? 0);

describe('alarms', () => {
  it('is in the menu, lists alarms newest first and filters them by state, severity and site', async () => {
    const { page } = admin;
    await page
      .getByRole('navigation', { name: 'Fleet Manager' })
      .getByRole('link', { name: 'Alarms' })
      .click();
    await heading(page, 'Alarms').waitFor();
    await table(page).waitFor();
    const all = await totalOf(page);
    expect(all).toBeGreaterThanOrEqual(3);
    await expectAccessible(page);

    await choose(page, 'State', 'Cleared');
    await page.waitForURL(/state=cleared/);
    // The list reloads for the filter: every row left is cleared.
    await expect
      .poll(async () => {
        const states = await column(page, 2);
        return (
          states.length > 0 && states.every((state) => /^(Info|Warning|Critical)\s+Cleared\s/i.test(state))
        );
      })
      .toBe(true);
    const cleared = await totalOf(page);
    expect(cleared).toBeLessThan(all);

    await choose(page, 'Severity', 'Critical');
    await page.waitForURL(/severity=critical/);
    await expect
      .poll(async () => (await column(page, 2)).every((text) => /^Critical\s+Cleared\s/i.test(text)))
      .toBe(true);

    // A site filter keeps only that site's alarms.
    await page.goto(appUrl('/alarms'));
    await table(page).waitFor();
    const site = (await table(page).getByRole('row').nth(1).locator('td:nth-child(4)').innerText()).trim();
    await choose(page, 'Site', site);
    await page.waitForURL(/siteId=\d+/);
    await expect.poll(async () => [...new Set(await column(page, 4))]).toEqual([site]);
  });

  it('acknowledges an active alarm with a note, refusing a blank one', async () => {
    const { page } = admin;
    // Warnings: alarms of devices (a site's own alarm, every device silent, is critical and names none).
    await page.goto(appUrl('/alarms?state=active&severity=warning'));
    await table(page).waitFor();
    const activeBefore = await totalOf(page);
    expect(activeBefore).toBeGreaterThan(0);
    const row = table(page).getByRole('row').nth(1);
    const device = (await row.locator('td:nth-child(3) a').innerText()).trim();
    await row.getByRole('button', { name: /^Acknowledge / }).click();
    const dialog = page.getByRole('dialog', { name: 'Acknowledge alarm' });
    await dialog.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await dialog.getByText(/^Write a note/).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'monitoring-alarm-acknowledge', () => dialog.waitFor());
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Engineer booked for Monday');
    await dialog.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The list reloads: one active alarm fewer; the acknowledged one carries the note.
    await expect.poll(() => totalOf(page)).toBe(activeBefore - 1);
    await page.goto(appUrl('/alarms?state=acknowledged'));
    const acknowledged = table(page).getByRole('row').filter({ hasText: 'Engineer booked for Monday' });
    await acknowledged.waitFor();
    expect(await acknowledged.first().innerText()).toContain(device);
  });

  it('exports the alarms of the current filter as CSV, every cell quoted', async () => {
    const { page } = admin;
    await page.goto(appUrl('/alarms?state=open'));
    await table(page).waitFor();
    const total = await totalOf(page);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV', exact: true }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('alarms.csv');
    const lines = (await downloaded(file)).toString('utf8').split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      '"Raised","Severity","State","Serial","Device name","Site","Alarm","Rule","Value","Acknowledged","Acknowledged by","Note","Cleared"',
    );
    expect(lines).toHaveLength(total + 1);
    for (const line of lines.slice(1)) expect(line).toMatch(/^"[^"]*"(,"([^"]|"")*")*$/);
    // Open alarms only: none is cleared.
    for (const line of lines.slice(1)) expect(line).toMatch(/^"[^"]*","[^"]*","(Active|Acknowledged)"/);
    await screenshots(page, 'monitoring-alarms', () => heading(page, 'Alarms').waitFor());
    expect(admin.errors).toEqual([]);
  });
});
