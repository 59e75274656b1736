import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, ARTIFACTS, appUrl, launchChromium } from './browser.ts';
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

/** The percent the progress line shows now, or -1 without one. */
async function percent(page: Page): Promise<number> {
  const text = await section(page)
    .getByText(/^\d+ % · /)
    .innerText()
    .catch(() => '');
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
    await section(page).getByRole('button', { name: 'Update the demo device' }).click();
    await section(page).getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 50);
    while ((await percent(page)) < 40) await page.clock.runFor(100);
    // Speed and time left come with the second acknowledgement.
    await section(page)
      .getByText(/KiB\/s · about \d+ s left$/)
      .waitFor();
    await page.screenshot({
      path: `${ARTIFACTS}firmware-update-wide.png`,
      fullPage: true,
      animations: 'disabled',
    });
    // Leaving mid-upload asks first; staying keeps the update going. The question's dialog needs
    // a little time to open: let it pass in small steps.
    await page.getByRole('link', { name: 'Home' }).first().click();
    const question = page.getByRole('dialog', { name: 'Leave this screen?' });
    while (!(await question.isVisible())) await page.clock.runFor(10);
    await question.getByRole('button', { name: 'Stay' }).click();
    while (await question.isVisible()) await page.clock.runFor(10);
    const before = await percent(page);
    await section(page).getByRole('button', { name: 'Demo: take the device out of range' }).click();
    await section(page).getByText(`The connection was lost at ${before} %: connecting again…`).waitFor();
    // It goes on from where the device stood, not from the start: time passes until it says so.
    const resumed = section(page).getByText(/^Sending the image, resumed at \d+ %…$/);
    while (!(await resumed.isVisible())) await page.clock.runFor(100);
    const at = Number(/resumed at (\d+) %/.exec(await resumed.innerText())?.[1]);
    expect(at).toBeGreaterThanOrEqual(before);
    await page.clock.resume();
    const done = section(page).getByRole('status').filter({ hasText: 'Updated' });
    await done.waitFor({ timeout: 60_000 });
    await expect(done.innerText()).resolves.toMatch(
      /The device runs 1\.1\.0 now, confirmed\. The upload went on from where the connection dropped\./,
    );
    await expectAccessible(page);
    await page.screenshot({
      path: `${ARTIFACTS}firmware-updated-wide.png`,
      fullPage: true,
      animations: 'disabled',
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await section(page).scrollIntoViewIfNeeded();
    await page.screenshot({
      path: `${ARTIFACTS}firmware-updated-phone.png`,
      fullPage: false,
      animations: 'disabled',
    });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

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
      await page.screenshot({ path: `${ARTIFACTS}firmware-refused-phone.png`, animations: 'disabled' });
      await page.setViewportSize({ width: 1440, height: 900 });
      await section(page).getByRole('button', { name: 'Dismiss' }).click();
      await section(page).getByRole('button', { name: 'Update the demo device' }).waitFor();
    } finally {
      await page.unroute('**/fleet/firmware/*/image');
    }
    expect(admin.errors).toEqual([]);
  });
});
