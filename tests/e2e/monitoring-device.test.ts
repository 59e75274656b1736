import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, appUrl, launchChromium } from './browser.ts';
import { heading, PHONE, screenshots, signedInPage, WIDE } from './screens-helpers.ts';

/**
 * Device details against the real server started as `npm start` starts it: the first four demo
 * devices run as simulated devices sending telemetry every 10 s (HX5K-24-000133 is the first), on
 * top of a week of seeded history; some seeded devices stopped reporting yesterday.
 */
const LIVE = 'HX5K-24-000133';

let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  admin = await signedInPage(browser, ADMIN);
});
afterAll(async () => {
  await browser?.close();
});

const liveStatus = (page: Page) => page.getByTestId('live-status');

describe('device details, monitoring', () => {
  it('shows live tiles that update from the live stream, with the last reading’s age', async () => {
    const { page } = admin;
    await page.goto(appUrl(`/device-details/HX-5000?serial=${LIVE}`));
    await heading(page, LIVE).waitFor();
    const tiles = page.getByRole('region', { name: 'Live values' });
    await liveStatus(page).getByText('Live', { exact: true }).waitFor({ timeout: 60_000 });
    const first = await liveStatus(page).innerText();
    expect(first).toMatch(/Last reading (just now|\d+ s ago) \(/);
    // A screen reader is told the state once; the age, which changes every second, is in no live region.
    await expect(page.getByTestId('live-announcement').textContent()).resolves.toBe(
      'Live: readings are arriving.',
    );
    await expect(
      page
        .locator('[role="status"], [aria-live]')
        .filter({ hasText: /just now| s ago/ })
        .count(),
    ).resolves.toBe(0);
    // Items are named by the role they play for the site, and the grid says which way it flows.
    await expect(
      tiles.getByRole('region', { name: 'Solar production (PV power)' }).innerText(),
    ).resolves.toMatch(/Solar production \(PV power\)\s+[\d,]+ W/);
    await expect(tiles.getByRole('region', { name: 'Grid (Grid power)' }).innerText()).resolves.toMatch(
      /Grid \(Grid power\)\s+[\d,]+ W (importing|exporting|idle)$/,
    );
    // On a phone's narrow tiles a value wraps between words, never inside one ("discharg-ing").
    await page.setViewportSize(PHONE);
    const brokenWords = await tiles.evaluate((region) => {
      const broken: string[] = [];
      for (const value of region.querySelectorAll('[data-testid^="live-"]')) {
        const walker = document.createTreeWalker(value, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          for (const match of text.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            if (range.getClientRects().length > 1) broken.push(match[0]);
          }
        }
      }
      return broken;
    });
    expect(brokenWords).toEqual([]);
    await page.setViewportSize(WIDE);
    // The next reading arrives through the stream: the time of the last reading changes (to the
    // second in its `datetime`; the text shows minutes, so it may read the same).
    const readAt = liveStatus(page).locator('time');
    const before = await readAt.getAttribute('datetime');
    expect(before).toMatch(/^\d{4}-\d\d-\d\dT/);
    await page.waitForFunction(
      (was) => {
        const now = document.querySelector('[data-testid="live-status"] time')?.getAttribute('datetime');
        return now != null && now !== was;
      },
      before,
      { timeout: 60_000 },
    );
    await liveStatus(page).getByText('Live', { exact: true }).waitFor();
    await expectAccessible(page);
  });

  it('draws the power chart with its text alternative, read by keyboard, over another range', async () => {
    const { page } = admin;
    await page.goto(appUrl(`/device-details/HX-5000?serial=${LIVE}`));
    const history = page.getByRole('region', { name: 'History' });
    const power = history.getByRole('slider', { name: /^Power: / });
    await power.waitFor();
    await expect(power.locator('canvas').count()).resolves.toBeGreaterThan(0);
    const summary = history.getByRole('region', { name: 'Power' }).locator('figcaption');
    await expect(summary.innerText()).resolves.toMatch(
      /^Last 24 hours\. Solar production: minimum [\d,.]+ W, maximum [\d,.]+ W \(.+\), latest [\d,.]+ W \(/,
    );
    await power.focus();
    await page.keyboard.press('ArrowLeft');
    await expect(power.getAttribute('aria-valuetext')).resolves.toMatch(/: Solar production [\d,.-]+ W/);
    await history.getByRole('region', { name: 'Energy per day' }).locator('figcaption').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'monitoring-device', () => power.waitFor());

    await history.getByText('7 d', { exact: true }).click();
    // A week holds less than seven days of the demo's history: the caption first says from when.
    await summary.filter({ hasText: /Last 7 days\. / }).waitFor();
    await expect(summary.innerText()).resolves.toMatch(/maximum [\d,.]+ W/);
    // The device's alarm history is on the same screen.
    await page.getByRole('region', { name: 'Alarms' }).waitFor();
  });

  it('marks the values of a device silent since yesterday as stale', async () => {
    const { page } = admin;
    // The devices that stopped reporting: offline, last seen hours ago (the others never reported).
    await page.goto(appUrl('/devices-list?page=0&state=offline'));
    const row = page
      .getByRole('table', { name: 'Devices offline' })
      .getByRole('row')
      .filter({ hasText: / h ago\)/ })
      .first();
    const serial = (await row.locator('td:nth-child(1) a').innerText()).trim();
    await row.locator('td:nth-child(1) a').click();
    await heading(page, serial).waitFor();
    await liveStatus(page).getByText('Stale', { exact: true }).waitFor();
    await expect(liveStatus(page).innerText()).resolves.toMatch(
      /No reading for .*: the device may be offline/,
    );
    await expect(page.locator('[data-stale="true"]').count()).resolves.toBeGreaterThan(0);
    const alarms = page.getByRole('table', { name: 'Alarms of this device' });
    await alarms
      .getByText(/^No telemetry for more than /)
      .first()
      .waitFor();
    await expectAccessible(page);
    await screenshots(page, 'monitoring-device-stale', () => heading(page, serial).waitFor());
    expect(admin.errors).toEqual([]);
  });
});
