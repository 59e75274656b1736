import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoLabels } from '../../server/db/demo-labels.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import { MemoryConfigStore } from '../../src/device-sim/config-store.ts';
import { bundledFleet } from '../../src/device-sim/online/bundled-fleet.ts';
import { connectWhenProvisioned } from '../../src/device-sim/online/connect-when-provisioned.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';
import { expectAccessible } from './axe.ts';
import { answerChooser, EmulatedPeripheral } from './ble-peripheral.ts';
import { appUrl, BLUETOOTH_ARGS, INSTALLER, launchChromium } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';
import { accessToken, configCall } from './service-calls.ts';

/**
 * Claiming a device by typing its label (serial and claim code) on a site of the installer's, as
 * one does where the camera cannot read the label, then provisioning it over Bluetooth. A wrong
 * code is refused with everything kept; the claimed device, silent, says since when and what to
 * check; connected over Chromium's emulated Bluetooth adapter (the real device simulator behind
 * it), the app gives it its network settings with the protocol's `Provision` command, the device
 * connects to the service's socket by itself with them, and its first reading says it is online.
 * Nobody types or sees a secret. The unit is a spare of the demo, whose manufacturing list knows
 * its code.
 */
const SITE = 5;
const LABEL = demoLabels().find((label) => label.serial.startsWith('BX10-'));
if (!LABEL) throw new Error('the demo has no spare BX-10');
const label = LABEL;

const battery = bundledProducts().find((p) => p.modelId === label.modelId);
if (!battery) throw new Error(`${label.modelId} missing`);

/** The unit's password as it leaves the factory: its catalogue's `pass_00`…`pass_15`. */
const FACTORY_PASSWORD = battery.config.rawData
  .filter((item) => item.name.startsWith('pass_') && item.value > 0)
  .map((item) => String.fromCharCode(item.value))
  .join('');

let browser: Browser;
let installer: { context: BrowserContext; page: Page; errors: string[] };
let peripheral: EmulatedPeripheral;
let deviceId = 0;
let online: ReturnType<typeof connectWhenProvisioned>;

beforeAll(async () => {
  const [codec, fleet] = await Promise.all([loadCodec(), bundledFleet('public')]);
  browser = await launchChromium(BLUETOOTH_ARGS);
  installer = await signedInPage(browser, INSTALLER);
  // The unit on the bench: over Bluetooth it is the simulator; given a secret and an address, it
  // connects to the service by itself, reporting as its simulated twin does.
  online = connectWhenProvisioned({
    serialNumber: label.serial,
    modelId: label.modelId,
    device: fleet.device(label.serial),
    log: () => {},
  });
  peripheral = await EmulatedPeripheral.start(browser, {
    codec,
    product: battery,
    serialNumber: label.serial,
    store: new MemoryConfigStore(),
    onProvisioned: online.onProvisioned,
  });
});
afterAll(async () => {
  await online?.stop();
  await peripheral?.stop();
  // The other files count the installer's devices: take this one off again (its claim goes with it).
  if (deviceId)
    expect(
      (await configCall('DELETE', `/fleet/installs/${deviceId}`, { token: await accessToken(INSTALLER) }))
        .status,
    ).toBe(204);
  await browser?.close();
});

describe('claiming a device by its label', () => {
  it('refuses a wrong claim code keeping what was typed, then claims with the right one', async () => {
    const { page } = installer;
    await page.goto(appUrl(`/site-details/${SITE}`));
    await page.getByRole('button', { name: 'Add device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add device' });
    // The serial is checked as it is typed, on its field: no model's serials begin with ZZ9.
    const serialField = dialog.getByLabel(/^Serial number/);
    await serialField.fill('zz9');
    await dialog.getByText(/^No model’s serial numbers begin with ZZ9/).waitFor();
    await expect(serialField.getAttribute('aria-invalid')).resolves.toBe('true');
    await serialField.fill(label.serial.toLowerCase());
    await expect(dialog.getByLabel('Model').inputValue()).resolves.toBe('BX-10');
    await dialog.getByLabel(/^Claim code/).fill('AAAA-BBBB-CCCC-DDDD');
    await dialog.getByLabel(/^Name/).fill('Loft battery');
    await dialog.getByRole('button', { name: 'Add device' }).click();
    // The refusal is about the code: it shows on the code's field, without the field's name.
    const refused = dialog.getByText(
      'This serial number and claim code do not belong together; check both on the label',
      { exact: true },
    );
    await refused.waitFor();
    await expect(dialog.getByLabel(/^Claim code/).getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(serialField.getAttribute('aria-invalid')).resolves.not.toBe('true');
    await expect(dialog.getByLabel(/^Name/).inputValue()).resolves.toBe('Loft battery');
    await screenshots(page, 'claim-wrong-code', () => refused.waitFor());
    // The app logs the refused call as it logs any (after the browser's own line for the 400);
    // nothing else went wrong.
    await expect
      .poll(() => installer.errors.some((line) => line.includes('/claims failed: claimCode')))
      .toBe(true);
    expect(
      installer.errors.filter((line) => !/400 \(Bad Request\)|\/claims failed: claimCode/.test(line)),
    ).toEqual([]);
    installer.errors.length = 0;
    // Typed as people type it from a label: lower case, spaces for dashes.
    await dialog.getByLabel(/^Claim code/).fill(label.claimCode.toLowerCase().replace(/-/g, ' '));
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await dialog.getByText(`${label.serial} is on this site`).waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('link', { name: label.serial }).first().waitFor();
    const listed = await configCall('GET', `/fleet/sites/installs/${SITE}?q=${label.serial}`, {
      token: await accessToken(INSTALLER),
    });
    deviceId = (listed.body as { items: { id: number; serial: string }[] }).items.find(
      (item) => item.serial === label.serial,
    )?.id as number;
    expect(deviceId).toBeGreaterThan(0);
  });

  it('says, while silent, since when and what to check; provisioned over Bluetooth it comes online by itself', async () => {
    const { page } = installer;
    await page.goto(appUrl(`/device-details/BX-10?serial=${label.serial}`));
    await heading(page, label.serial).waitFor();
    const hint = page.getByRole('status').filter({ hasText: 'nothing heard from it yet' });
    await hint.getByText(/^Claimed (just now|\d+ s ago); nothing heard from it yet$/).waitFor();
    await hint.getByText(/^Power:/).waitFor();
    await hint.getByText(/^Network:/).waitFor();
    const address = (await hint.locator('code').textContent()) ?? '';
    expect(address).toBe(appUrl('/config/service-comms/devices/ws').replace(/^http/, 'ws'));
    await expectAccessible(page);
    await screenshots(page, 'claim-silent-device', () => hint.waitFor());
    // Connected over Bluetooth and unlocked, the app gives it its network settings.
    const chooser = await answerChooser(page);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(`Connected to ${label.serial}`).waitFor();
    expect(chooser.prompts()).toBe(1);
    await page.getByLabel('Device password').fill(FACTORY_PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByText('Unlocked: the settings can be changed.').waitFor();
    await page.getByRole('button', { name: 'Give it its network settings' }).click();
    const given = page.getByRole('status').filter({ hasText: 'has its network settings' });
    await given.getByText(address).waitFor();
    expect(peripheral.device.provisioning?.address).toBe(address);
    await screenshots(page, 'claim-provisioned', () => given.waitFor());
    await page
      .getByTestId('live-status')
      .getByText(/^Online: its first reading arrived/)
      .waitFor();
    expect(await hint.count()).toBe(0);
    // The secret went from the service to the device; the page never showed it.
    const secret = peripheral.device.provisioning?.secret ?? '';
    expect(secret.length).toBeGreaterThan(20);
    expect(await page.content()).not.toContain(secret);
    expect(installer.errors).toEqual([]);
  });
});
