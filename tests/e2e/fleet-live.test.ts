import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, appUrl, launchChromium } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';

/**
 * Screens follow the fleet as it changes, as a person with two tabs sees it: an alarm
 * acknowledged in one tab changes Home's counts and the alarms list in the others, without a
 * reload, within a few seconds (the fleet stream tells each tab; each loads its numbers again).
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

/** A change told by the stream is on screen within this long. */
const A_FEW_SECONDS = 10_000;

/** "5 active, 1 acknowledged" under Home's open alarms count, as numbers. */
async function openAlarmsDetail(page: Page): Promise<{ active: number; acknowledged: number }> {
  const text = await page.getByRole('region', { name: 'Open alarms', exact: true }).innerText();
  const match = /([\d,]+) active, ([\d,]+) acknowledged/.exec(text);
  const number = (value: string | undefined) => Number((value ?? '').replace(/\D/g, ''));
  return { active: number(match?.[1]), acknowledged: number(match?.[2]) };
}

const pagerTotal = async (page: Page) =>
  Number(
    (
      /of ([\d,]+) ·/.exec(
        await page
          .getByRole('navigation', { name: 'Pages' })
          .getByText(/of [\d,]+ ·/)
          .innerText(),
      )?.[1] ?? ''
    ).replace(/\D/g, ''),
  );

describe('live counts across tabs', () => {
  it('an alarm acknowledged in one tab changes the counts in the others within a few seconds', async () => {
    const home = admin.page;
    await home.goto(appUrl('/landing'));
    await home.getByText('Updates live.').waitFor();
    const before = await openAlarmsDetail(home);
    expect(before.active).toBeGreaterThan(0);

    const list = await admin.context.newPage();
    await list.goto(appUrl('/alarms?page=0&state=active'));
    await heading(list, 'Alarms').waitFor();
    await list.getByText('Updates live.').waitFor();
    const activeListed = await pagerTotal(list);
    expect(activeListed).toBe(before.active);

    const acting = await admin.context.newPage();
    await acting.goto(appUrl('/alarms?page=0&state=active'));
    const row = acting
      .getByRole('table', { name: 'Alarms' })
      .getByRole('row')
      .filter({ has: acting.getByRole('button', { name: /^Acknowledge / }) })
      .first();
    await row.getByRole('button', { name: /^Acknowledge / }).click();
    const dialog = acting.getByRole('dialog', { name: 'Acknowledge alarm' });
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Seen from the other tab');
    await dialog.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The other tabs were not touched: their numbers move by themselves.
    await home
      .getByRole('region', { name: 'Open alarms', exact: true })
      .getByText(
        `${(before.active - 1).toLocaleString('en-US')} active, ${(before.acknowledged + 1).toLocaleString('en-US')} acknowledged`,
      )
      .waitFor({ timeout: A_FEW_SECONDS });
    await expect.poll(() => pagerTotal(list), { timeout: A_FEW_SECONDS }).toBe(activeListed - 1);
    await screenshots(home, 'fleet-live-home', () => heading(home, 'Home').waitFor());
    await list.close();
    await acting.close();
    expect(admin.errors).toEqual([]);
  });
});
