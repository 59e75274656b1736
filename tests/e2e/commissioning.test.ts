import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelText } from '../../contracts/claims.ts';
import { demoLabels } from '../../server/db/demo-labels.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { MemoryConfigStore } from '../../src/device-sim/config-store.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';
import { pdfText } from '../pdf-text.ts';
import { expectAccessible } from './axe.ts';
import { answerChooser, EmulatedPeripheral } from './ble-peripheral.ts';
import { appUrl, BLUETOOTH_ARGS, INSTALLER, launchChromium } from './browser.ts';
import {
  blockMaps,
  chooseCountry,
  heading,
  screenshots,
  signedInPage,
  withMapsKey,
} from './screens-helpers.ts';

/**
 * Commissioning end to end, as an installer does it: create a site, claim a device by scanning the
 * QR code on its label, serial and claim code (Chromium's fake camera plays a picture the test
 * draws; the unit is one of the demo's spares, whose codes its manufacturing list knows), connect to it
 * over the emulated Bluetooth adapter, save a settings template, apply it with its diff shown,
 * download the commissioning report and read its text; another company's installer gets 404.
 */
const LABEL = demoLabels().find((label) => label.modelId === 'HX-5000');
if (!LABEL) throw new Error('the demo has no spare HX-5000');
const SERIAL = LABEL.serial;
const SITE_NAME = `Commissioning Farm ${Date.now().toString(36)}`;
const OTHER_INSTALLER = { email: 'installer@brightvolt.example', password: 'Installer#2026' };
const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000');
if (!hybrid) throw new Error('HX-5000 missing');
const product = hybrid;

/**
 * A Y4M video (what Chromium's fake camera plays) of one still frame: the QR code of `text`,
 * black on white, in the middle of a 640×480 picture.
 */
function qrVideo(text: string, path: string) {
  const width = 640;
  const height = 480;
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const scale = Math.floor(360 / (modules.size + 8));
  const side = (modules.size + 8) * scale;
  // Whole pixels: half of an odd margin would index between the bytes and draw nothing.
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < side; y += 1)
    for (let x = 0; x < side; x += 1) {
      const row = Math.floor(y / scale) - 4;
      const col = Math.floor(x / scale) - 4;
      const dark = row >= 0 && col >= 0 && row < modules.size && col < modules.size && modules.get(row, col);
      if (dark) luma[(top + y) * width + left + x] = 16;
    }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, frame, frame, frame]));
}

const folder = mkdtempSync(join(tmpdir(), 'fake-camera-'));
const video = join(folder, 'serial-qr.y4m');
let browser: Browser;
let codec: Codec;
let peripheral: EmulatedPeripheral;
let installer: Awaited<ReturnType<typeof signedInPage>>;
let siteId = 0;
let deviceId = 0;
let templateId = 0;

beforeAll(async () => {
  qrVideo(labelText(SERIAL, LABEL.claimCode), video);
  [browser, codec] = await Promise.all([
    launchChromium([
      ...BLUETOOTH_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]),
    loadCodec(),
  ]);
  installer = await signedInPage(browser, INSTALLER);
  peripheral = await EmulatedPeripheral.start(browser, {
    codec,
    product,
    serialNumber: SERIAL,
    store: new MemoryConfigStore(),
  });
});
afterAll(async () => {
  // The other files count the installer's sites and devices on this server: take ours away again
  // (an archived site leaves every list).
  const service = await serviceAs(INSTALLER);
  if (deviceId) expect((await service('DELETE', `/fleet/installs/${deviceId}`)).status).toBe(204);
  if (templateId) await service('DELETE', `/fleet/config-templates/${templateId}`);
  if (siteId) expect((await service('DELETE', `/sites/${siteId}`)).status).toBe(204);
  await installer?.context.close();
  await peripheral?.stop();
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The service's calls, as a script would make them, with a token of `user`. */
async function serviceAs(user: { email: string; password: string }) {
  const { apiKey } = (await (await fetch(appUrl('/app-config.json'))).json()) as { apiKey: string };
  const login = await fetch(appUrl('/config/auth/v2/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': apiKey },
    body: JSON.stringify({ main_email: user.email, password: user.password }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  return (method: string, path: string, body?: unknown) =>
    fetch(appUrl(`/config${path}`), {
      method,
      headers: {
        'content-type': 'application/json',
        'api-key': apiKey,
        authorization: `Bearer ${access_token}`,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

const siteIdOf = (page: Page) => Number(new URL(page.url()).pathname.split('/').at(-1));

describe('commissioning a site', () => {
  it("creates a site and claims a device for it by scanning its label's QR code", async () => {
    const { page } = installer;
    await withMapsKey(page);
    await blockMaps(page);
    await page.goto(appUrl('/create-site'));
    await page.getByLabel(/^Site name/).fill(SITE_NAME);
    // Without the maps, the address is typed in its parts.
    await page.getByLabel(/^Street\s*\*?$/).fill('Turbine Road');
    await page.getByLabel('Street number').fill('7');
    await page.getByLabel(/^Town or city/).fill('Marfa');
    await page.getByLabel('State or region').fill('TX');
    await chooseCountry(page, 'United States');
    await page.getByLabel('Latitude').fill('30.31');
    await page.getByLabel('Longitude').fill('-104.02');
    await page.getByRole('button', { name: 'Create site' }).click();
    await heading(page, SITE_NAME).waitFor();
    await page.unrouteAll();
    siteId = siteIdOf(page);
    await page.getByText('No devices installed here yet').waitFor();
    await page.getByRole('button', { name: 'Add device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add device' });
    await dialog.getByRole('button', { name: 'Scan code' }).click();
    await expect
      .poll(() => dialog.getByLabel(/^Serial number/).inputValue(), { timeout: 30_000 })
      .toBe(SERIAL);
    await expect(dialog.getByLabel(/^Claim code/).inputValue()).resolves.toBe(LABEL.claimCode);
    await expect(dialog.getByLabel('Model').inputValue()).resolves.toBe('HX-5000');
    await dialog.getByLabel(/^Name/).fill('Barn inverter');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await dialog.getByText(`${SERIAL} is on this site`).waitFor();
    // Nobody copies a secret: the device is given its own over Bluetooth.
    expect(await dialog.getByText(/secret|npm run/i).count()).toBe(0);
    await screenshots(page, 'commissioning-device-claimed', () =>
      dialog.getByText(`${SERIAL} is on this site`).waitFor(),
    );
    await dialog.getByRole('button', { name: 'Done' }).click();
    const devices = page.getByRole('table', { name: `Devices at ${SITE_NAME}` });
    await devices.getByRole('link', { name: SERIAL }).waitFor();
    await page.getByRole('list', { name: 'Changes, newest first' }).getByText(`${SERIAL} put on`).waitFor();
    await screenshots(page, 'commissioning-site', () => heading(page, SITE_NAME).waitFor());
    await expectAccessible(page);
  });

  it('saves a template from the connected device and applies it with its diff shown', async () => {
    const { page } = installer;
    const chooser = await answerChooser(page);
    await page
      .getByRole('table', { name: `Devices at ${SITE_NAME}` })
      .getByRole('link', { name: SERIAL })
      .click();
    await heading(page, SERIAL).waitFor();
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(`Connected to ${SERIAL}`).waitFor();
    expect(chooser.prompts()).toBe(1);
    await page.getByLabel('Device password').fill('0000');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByText('Unlocked: the settings can be changed.').waitFor();
    const before = peripheral.device.currentRaw();
    // The template: the form as edited, saved, then the form put back.
    await page.getByLabel(/^Max charge current/).fill('35');
    await page.getByLabel(/^Work mode/).selectOption({ label: 'Backup' });
    await page.getByRole('button', { name: 'Save as template' }).click();
    const save = page.getByRole('dialog', { name: 'Save as template' });
    await save.getByLabel(/^Template name/).fill('Barn standard');
    await save.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Saved the template “Barn standard”.').waitFor();
    await page.getByRole('button', { name: 'Revert' }).click();
    const templates = page.getByRole('table', { name: 'Templates of the HX-5000' });
    await templates
      .getByRole('row', { name: /Barn standard/ })
      .getByRole('button', { name: 'Apply…' })
      .click();
    const diff = page.getByRole('table', { name: 'Settings “Barn standard” changes' });
    const current = `${before.maxChargeCurrent ? before.maxChargeCurrent / 10 : 0} A`;
    await diff.getByRole('row', { name: `Max charge current ${current} 35 A` }).waitFor();
    await diff.getByRole('row', { name: /Work mode .* Backup/ }).waitFor();
    await screenshots(page, 'commissioning-template-diff', () => diff.waitFor());
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Write template' }).click();
    await page.getByText('Written and verified').waitFor();
    expect(peripheral.device.currentRaw()).toMatchObject({ maxChargeCurrent: 350, workMode: 2 });
    const history = page.getByRole('list', { name: 'Configuration changes, newest first' });
    await history.getByText('template “Barn standard”', { exact: false }).waitFor();
    await page.getByText('The device already holds every setting of this template.').waitFor();
    const service = await serviceAs(INSTALLER);
    const listed = await service('GET', `/fleet/sites/installs/${siteId}`);
    deviceId = ((await listed.json()) as { items: { id: number }[] }).items[0]?.id ?? 0;
    const list = await service('GET', '/fleet/config-templates?modelId=HX-5000');
    const items = ((await list.json()) as { items: { id: number; name: string }[] }).items;
    templateId = items.find((t) => t.name === 'Barn standard')?.id ?? 0;
    expect(deviceId).toBeGreaterThan(0);
    expect(templateId).toBeGreaterThan(0);
  });

  it('writes a template to devices online once per press, and ticks changed afterwards send nothing', async () => {
    const { page } = installer;
    // HX5K-24-000133 runs as a simulated device of the installer's; the service's answer to the
    // write is held here, as writing for real would change a device other files read.
    const online = 'HX5K-24-000133';
    const sent: unknown[] = [];
    await page.route(`**/config/fleet/config-templates/${templateId}/apply`, async (route) => {
      sent.push(route.request().postDataJSON());
      await route.fulfill({
        json: {
          template: { id: templateId, name: 'Barn standard' },
          results: [{ serial: online, outcome: 'written', reason: null, changes: [] }],
        },
      });
    });
    const dialog = page.getByRole('dialog', { name: 'Write “Barn standard” to devices online' });
    const device = dialog.getByRole('checkbox', { name: online });
    const none = dialog.getByText('No HX-5000 of yours is online now.');
    const openDialog = () =>
      page
        .getByRole('table', { name: 'Templates of the HX-5000' })
        .getByRole('row', { name: /Barn standard/ })
        .getByRole('button', { name: 'Apply online…' })
        .click();
    // A look at the devices online that the service cannot answer says why; "Try again" looks again.
    await page.route(
      '**/config/service-comms/devices/online',
      (route) =>
        route.fulfill({
          status: 503,
          json: { message: 'The database is busy; try again', code: 'unavailable' },
        }),
      { times: 1 },
    );
    await openDialog();
    await dialog.getByRole('alert').getByText('The database is busy; try again').waitFor();
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await device.or(none).waitFor();
    expect(await dialog.getByRole('alert').count()).toBe(0);
    // The simulated devices connect as the server starts: open again until it is listed.
    for (let attempt = 0; attempt < 10 && !(await device.isVisible()); attempt += 1) {
      await dialog.getByRole('button', { name: 'Close' }).last().click();
      await openDialog();
      await device.or(none).waitFor();
    }
    // Nothing ticked: the press says what is missing and sends nothing.
    await dialog.getByRole('button', { name: 'Write to 0 devices' }).click();
    const missing = dialog.getByText('Tick at least one device');
    await missing.waitFor();
    await device.check();
    await missing.waitFor({ state: 'hidden' });
    const write = dialog.getByRole('button', { name: 'Write to 1 device' });
    const results = dialog.getByRole('table', { name: 'Result per device' });
    for (const presses of [1, 2]) {
      await write.click();
      await expect.poll(() => sent.length).toBe(presses);
      await results.getByRole('row', { name: `${online} Written and verified` }).waitFor();
    }
    expect(sent).toEqual([
      { serials: [online], continueOnFailure: false },
      { serials: [online], continueOnFailure: false },
    ]);
    // Changing the ticks after a write leaves its results, and sends nothing.
    await device.uncheck();
    await device.check();
    await results.waitFor();
    expect(await dialog.getByText('Writing, one device at a time…').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'hidden' });
    expect(sent).toHaveLength(2);
    await page.unroute(`**/config/fleet/config-templates/${templateId}/apply`);
  });

  it('downloads the commissioning report, whose text holds the serial and the written settings', async () => {
    const { page } = installer;
    await page.goto(appUrl(`/site-details/${siteId}`));
    await heading(page, SITE_NAME).waitFor();
    // A first press the service cannot answer says why, in place; the next one downloads.
    await page.route('**/commissioning-report', (route) =>
      route.fulfill({
        status: 503,
        json: { message: 'The database is busy; try again', code: 'unavailable' },
      }),
    );
    await page.getByRole('button', { name: 'Commissioning report' }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'Commissioning report did not work' });
    await failed.getByText('The database is busy; try again').waitFor();
    await page.unroute('**/commissioning-report');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Commissioning report' }).click();
    const file = await (await download).path();
    const text = pdfText(readFileSync(file)).replace(/\s+/g, ' ');
    expect(text).toContain(SITE_NAME);
    expect(text).toContain(SERIAL);
    expect(text).toContain('Barn inverter');
    expect(text).toContain('Template applied Barn standard');
    expect(text).toContain('Max charge current 35 A installer@solarpros.example');
    expect(text).toMatch(/Work mode .*Backup installer@solarpros\.example/);
    await page.getByText('The report was downloaded.').waitFor();
    expect(await failed.count()).toBe(0);
  });

  it("answers another company's installer 404 on every commissioning call", async () => {
    const other = await serviceAs(OTHER_INSTALLER);
    const calls: [string, string, unknown?][] = [
      ['POST', `/fleet/sites/${siteId}/installs`, { serial: 'HX5K-26-004243', modelId: 'HX-5000' }],
      ['POST', `/fleet/sites/${siteId}/claims`, { serial: 'HX5K-26-004243', claimCode: LABEL.claimCode }],
      ['PUT', `/fleet/installs/${deviceId}`, { name: 'Mine now' }],
      ['POST', `/fleet/installs/${deviceId}/replace`, { serial: 'HX5K-26-004244' }],
      ['DELETE', `/fleet/installs/${deviceId}`],
      ['DELETE', `/sites/${siteId}`],
      ['GET', `/fleet/sites/${siteId}/audit`],
      ['GET', `/fleet/devices/${SERIAL}/audit`],
      ['GET', `/fleet/sites/${siteId}/commissioning-report`],
      ['POST', `/fleet/sites/${siteId}/commissioning-report/send`],
      ['GET', `/fleet/config-templates/${templateId}`],
      ['PUT', `/fleet/config-templates/${templateId}`, { name: 'Taken' }],
      ['DELETE', `/fleet/config-templates/${templateId}`],
      ['POST', `/fleet/config-templates/${templateId}/apply`, { serials: [SERIAL] }],
    ];
    const statuses = await Promise.all(
      calls.map(async ([method, path, body]) => [method, path, (await other(method, path, body)).status]),
    );
    expect(statuses).toEqual(calls.map(([method, path]) => [method, path, 404]));
  });
});
