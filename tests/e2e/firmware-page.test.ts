import { randomInt } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIRMWARE, type FirmwareKeys } from '../../contracts/firmware.ts';
import { smpSide } from '../../src/device-sim/online/smp-side.ts';
import type { SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import { connectDevice } from '../server/service-comms-devices.ts';
import { expectAccessible } from './axe.ts';
import { ADMIN, appUrl, launchChromium, saveScreenshot } from './browser.ts';
import { dataList, heading, signedInPage } from './screens-helpers.ts';
import { accessToken, configCall } from './service-calls.ts';

/**
 * The Firmware page as company staff use it: a file that is no image is refused with the service's
 * reason, then the demo's signed image is rolled out from its row to three new devices online
 * through their sockets (simulated, with MCUboot's two slots), and the rollout's page follows each
 * device until every one is confirmed running the new version.
 */
const SITE = 1;
const MODEL = 'HX-5000';

let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
const online: SocketDevice[] = [];
const serials: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  admin = await signedInPage(browser, ADMIN);
  const token = await accessToken(ADMIN);
  const { keys } = (await configCall('GET', '/fleet/firmware/keys', { token })).body as FirmwareKeys;
  const trusted = keys.map((key) => new Uint8Array(Buffer.from(key.publicKey, 'base64')));
  const origin = new URL(appUrl('/')).origin;
  // Three new devices of the demo's model on a demo site, online, running the demo's old firmware.
  for (let i = 0; i < 3; i += 1) {
    const serial = `HX5K-26-${String(randomInt(100_000, 999_999)).padStart(6, '0')}`;
    const installed = await configCall('POST', `/fleet/sites/${SITE}/installs`, {
      token,
      body: { serial, modelId: MODEL, name: `Rollout inverter ${i + 1}` },
    });
    expect(installed.status).toBe(201);
    const smp = await smpSide({
      modelId: MODEL,
      version: DEMO_FIRMWARE.running,
      keys: trusted,
      healthy: true,
    });
    online.push(
      await connectDevice(origin, {
        serialNumber: serial,
        modelId: MODEL,
        secret: (installed.body as { secret: string }).secret,
        firmwareVersion: DEMO_FIRMWARE.running,
        smp,
        restartMs: 20,
      }),
    );
    serials.push(serial);
  }
});
afterAll(async () => {
  await Promise.all(online.map((device) => device.stop()));
  await browser?.close();
});

/** The page at 1440×900 and on a 390×844 phone, as PNGs to look at. */
async function shots(page: Page, name: string, ready: () => Promise<unknown>) {
  for (const [size, viewport] of [
    ['wide', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await ready();
    await saveScreenshot(page, `${name}-${size}.png`, { fullPage: true, animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('the Firmware page', () => {
  it("refuses a file that is no image with the service's reason, and rolls the demo image out to devices online until each is confirmed", async () => {
    const { page } = admin;
    await page
      .getByRole('navigation', { name: 'Fleet Manager' })
      .getByRole('link', { name: 'Firmware' })
      .click();
    await heading(page, 'Firmware').waitFor();
    const images = dataList(page, `Images for ${MODEL}`);
    await images.getByText(DEMO_FIRMWARE.offered, { exact: true }).first().waitFor();

    // A file that is not an MCUboot image: the dialog stays, saying why.
    await page.getByRole('button', { name: 'Upload image' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload a firmware image' });
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload.getByText('Choose the image file').waitFor();
    await upload.getByText('Choose the model the image is for').waitFor();
    await upload.locator('input[type="file"]').setInputFiles({
      name: 'notes.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('not firmware'),
    });
    await upload.getByRole('combobox', { name: 'Model' }).fill(MODEL);
    await page.getByRole('option', { name: new RegExp(`\\(${MODEL}\\)$`) }).click();
    await upload.getByRole('button', { name: 'Upload' }).click();
    const refused = upload.getByRole('alert').filter({ hasText: 'The image was not uploaded' });
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/The image was refused: .+/);
    await expectAccessible(page);
    await upload.getByRole('button', { name: 'Cancel' }).click();
    await upload.waitFor({ state: 'detached' });

    // The demo's image, rolled out from its row: the form says what is missing before anything is sent.
    await images
      .getByRole('button', { name: `Roll out ${MODEL} ${DEMO_FIRMWARE.offered}` })
      .first()
      .click();
    const start = page.getByRole('dialog', { name: 'Start a rollout' });
    await start.getByRole('textbox', { name: 'Serial numbers' }).fill('HX5K-24-12');
    await start.getByRole('button', { name: 'Start rollout' }).click();
    await start.getByText('HX5K-24-12 is not a serial number such as HX5K-24-000123').waitFor();
    await start.getByRole('textbox', { name: 'Serial numbers' }).fill(serials.join('\n'));
    await start.getByRole('textbox', { name: 'Wave size' }).fill('2');
    await start.getByRole('textbox', { name: 'Failure limit' }).fill('0');
    await start.getByRole('textbox', { name: 'Window (hours)' }).fill('2');
    await start.getByRole('button', { name: 'Start rollout' }).click();

    // The rollout's page: each device's state read again while it runs, until every one is confirmed.
    const title = heading(page, new RegExp(`^Rollout #\\d+: ${MODEL} ${DEMO_FIRMWARE.offered}$`));
    await title.waitFor();
    // The window asked for is the rollout's.
    const id = /#(\d+)/.exec(await title.innerText())?.[1];
    const started = await configCall('GET', `/fleet/firmware-rollouts/${id}`, {
      token: await accessToken(ADMIN),
    });
    const { createdAt, windowEndsAt } = started.body as { createdAt: string; windowEndsAt: string };
    expect(Date.parse(windowEndsAt) - Date.parse(createdAt)).toBe(2 * 3_600_000);
    const devices = dataList(page, 'Devices of the rollout');
    for (const serial of serials) await devices.getByText(serial).waitFor();
    await page.getByText('Finished: nothing more moves by itself.').waitFor({ timeout: 60_000 });
    const rows = await devices.getByRole('row').allInnerTexts();
    for (const serial of serials) {
      const row = rows.find((text) => text.includes(serial)) ?? '';
      // The badge is drawn in capitals; its text is "Confirmed".
      expect(row.toLowerCase()).toContain('confirmed');
      expect(row).toContain(DEMO_FIRMWARE.offered);
    }
    await page.getByText('Done', { exact: true }).waitFor();
    await page.getByText(`3 of 3 confirmed`).waitFor();
    // Nothing to steer once it is done.
    expect(await page.getByRole('button', { name: 'Pause' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel rollout' }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await shots(page, 'firmware-rollout', () => heading(page, /^Rollout #/).waitFor());

    // Back on the list, the rollout is first, done, with its counts.
    await page.getByRole('link', { name: '← Firmware' }).click();
    const rollouts = dataList(page, 'Rollouts');
    await rollouts.getByText('3 of 3 confirmed').first().waitFor();
    await shots(page, 'firmware-page', () => heading(page, 'Firmware').waitFor());
    // The one refusal is logged (the browser's 400 and the API client's line); nothing else.
    expect(admin.errors.filter((e) => !/status of 400|\/fleet\/firmware failed/.test(e))).toEqual([]);
  });
});
