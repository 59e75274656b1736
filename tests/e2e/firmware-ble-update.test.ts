import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, appUrl, launchChromium, saveScreenshot } from './browser.ts';
import { heading, signedInPage } from './screens-helpers.ts';

/**
 * A device's firmware update from device details, through the update machine and the demo
 * device's SMP link in the page (Chromium's emulated Bluetooth adapter cannot send notifications,
 * which SMP answers by): the demo ships 1.1.0 of each model, the device runs 1.0.0.
 */
const SERIAL = 'HX5K-24-000133';

let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  admin = await signedInPage(browser, ADMIN);
});
afterAll(async () => {
  await browser?.close();
});

const section = (page: Page) => page.getByRole('region', { name: 'Firmware update' });

/**
 * The percent the progress line shows now, or -1 without one. Read without waiting: until the
 * test lets the page's clock run, there may be no line yet, and a locator's own wait for it would
 * hold the test half a minute for nothing.
 */
async function percent(page: Page): Promise<number> {
  const [text = ''] = await section(page)
    .getByText(/^\d+ % · /)
    .allInnerTexts();
  return Number(/^(\d+) %/.exec(text)?.[1] ?? -1);
}

async function openDevice(page: Page) {
  await page.goto(appUrl(`/device-details/HX-5000?serial=${SERIAL}`));
  await heading(page, SERIAL).waitFor();
  await section(page)
    .getByText('Firmware 1.1.0 is available; the device runs 1.0.0.', { exact: false })
    .waitFor();
}

describe('a firmware update over Bluetooth, on the demo device', () => {
  it('resumes after the link drops at about 40 %, and reads the new version after the restart', async () => {
    const { page } = admin;
    await page.setViewportSize({ width: 1440, height: 900 });
    // The page's clock, held by the test: the demo device's radio moves only when the test lets
    // time pass, so the link drops at 40 % every run, however busy the machine is.
    await page.clock.install();
    await openDevice(page);
    try {
      await heldUpdate(page);
    } finally {
      await page.clock.resume();
    }
  });

  async function heldUpdate(page: Page) {
    // The clock stops a few seconds ahead of the page, before the update starts (timers due by
    // then fire once, as after a computer's short sleep); from here time passes only in steps.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 5_000);
    await section(page).getByRole('button', { name: 'Update the demo device' }).click();
    while ((await percent(page)) < 40) await page.clock.runFor(100);
    // Speed and time left come with the second acknowledgement.
    await section(page)
      .getByText(/KiB\/s · about \d+ s left$/)
      .waitFor();
    await saveScreenshot(page, 'firmware-update-wide.png', { fullPage: true, animations: 'disabled' });
    await page.setViewportSize({ width: 390, height: 844 });
    await section(page).scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'firmware-update-phone.png', { animations: 'disabled' });
    await page.setViewportSize({ width: 1440, height: 900 });
    // Out of range: the reconnection waits on the held clock, so the percent it names is where the
    // app's last acknowledgement stood when the link went.
    await section(page).getByRole('button', { name: 'Demo: take the device out of range' }).click();
    const lost = section(page).getByText(/^The connection was lost at \d+ %: connecting again…$/);
    await lost.waitFor();
    const dropped = Number(/lost at (\d+) %/.exec(await lost.innerText())?.[1]);
    expect(dropped).toBeGreaterThanOrEqual(40);
    // Leaving while it reconnects asks first; staying keeps the update going. The dialog opens and
    // closes on the page's timers, so time passes in small steps until it has: well under the
    // three seconds of the page's time the rest of the update takes (the demo radio sends 16 KiB/s,
    // the device restarts in 1.5 s), and where it resumed is the device's answer, kept by the machine.
    await page.getByRole('link', { name: 'Home' }).first().click();
    const question = page.getByRole('dialog', { name: 'Leave this screen?' });
    while (!(await question.isVisible())) await page.clock.runFor(10);
    await question.getByRole('button', { name: 'Stay' }).click();
    while (await question.isVisible()) await page.clock.runFor(10);
    await heading(page, SERIAL).waitFor();
    await page.clock.resume();
    // The outcome, whichever it is (a failure's alert says why).
    const outcome = section(page)
      .getByRole('status')
      .filter({ hasText: 'Updated' })
      .or(section(page).getByRole('alert'));
    await outcome.waitFor({ timeout: 60_000 });
    // The percent is the device's own answer to the first chunk after the reconnection: from the
    // start again, it would be that chunk's few percent.
    const result = await outcome.innerText();
    expect(result).toMatch(
      /The device runs 1\.1\.0 now, confirmed\. The upload went on from where the connection dropped, at \d+ %\./,
    );
    const resumed = Number(/dropped, at (\d+) %/.exec(result)?.[1]);
    expect(resumed).toBeGreaterThanOrEqual(dropped);
    expect(resumed).toBeLessThan(100);
    await expectAccessible(page);
    await saveScreenshot(page, 'firmware-updated-wide.png', { fullPage: true, animations: 'disabled' });
    await page.setViewportSize({ width: 390, height: 844 });
    await section(page).scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'firmware-updated-phone.png', { fullPage: false, animations: 'disabled' });
    await page.setViewportSize({ width: 1440, height: 900 });
  }

  it('refuses a tampered image before anything is sent, naming the reason', async () => {
    const { page } = admin;
    await page.route('**/fleet/firmware/*/image', async (route) => {
      const response = await route.fetch();
      const body = Buffer.from(await response.body());
      body[2000] = (body[2000] ?? 0) ^ 0xff;
      await route.fulfill({ response, body });
    });
    try {
      await openDevice(page);
      await section(page).getByRole('button', { name: 'Update the demo device' }).click();
      const refusal = section(page).getByRole('alert');
      await refusal.waitFor();
      await expect(refusal.innerText()).resolves.toMatch(
        /The image was refused before anything was sent to the device: the image's SHA-256 TLV does not match/,
      );
      await page.setViewportSize({ width: 390, height: 844 });
      await section(page).scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'firmware-refused-phone.png', { animations: 'disabled' });
      await page.setViewportSize({ width: 1440, height: 900 });
      await section(page).getByRole('button', { name: 'Dismiss' }).click();
      await section(page).getByRole('button', { name: 'Update the demo device' }).waitFor();
    } finally {
      await page.unroute('**/fleet/firmware/*/image');
    }
    expect(admin.errors).toEqual([]);
  });
});
