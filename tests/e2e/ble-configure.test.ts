import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { formatDateTime } from '../../src/components/format-date.ts';
import { dateTimeText, formatAutoInput } from '../../src/device-config/time-format.ts';
import { MemoryConfigStore } from '../../src/device-sim/config-store.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';
import { expectAccessible } from './axe.ts';
import { answerChooser, EmulatedPeripheral } from './ble-peripheral.ts';
import { appUrl, BLUETOOTH_ARGS, INSTALLER, launchChromium, saveScreenshot } from './browser.ts';
import { signedInPage } from './screens-helpers.ts';

const SERIAL = 'HX5K-24-000123';
const PASSWORD = '0042abc';
const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000');
if (!hybrid) throw new Error('HX-5000 missing');
const product = hybrid;

let browser: Browser;
let codec: Codec;
beforeAll(async () => {
  [browser, codec] = await Promise.all([launchChromium(BLUETOOTH_ARGS), loadCodec()]);
});
afterAll(async () => {
  await browser?.close();
});

/** A device store whose password is `PASSWORD`: leading zeros, so a number would lose them. */
function storeWithPassword(): MemoryConfigStore {
  const store = new MemoryConfigStore();
  const codes = codec.passwordCodes(PASSWORD);
  store.save(SERIAL, Object.fromEntries(codes.map((c, i) => [`pass_${String(i).padStart(2, '0')}`, c])));
  return store;
}

/** The settings (not the live values) the device holds, raw. */
function settings(device: { currentRaw(): Record<string, number> }): Record<string, number> {
  const raw = device.currentRaw();
  return Object.fromEntries(
    product.config.rawData.filter((i) => !i.readOnly).map((i) => [i.name, raw[i.name] as number]),
  );
}

async function unlock(page: Page, password = PASSWORD) {
  await page.getByLabel('Device password').fill(password);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByText('Unlocked: the settings can be changed.').waitFor();
}

/**
 * The phone's clock in these pages, held still (Playwright's fixed time; timers keep running) a
 * few seconds into a minute, so the clock field's auto-input is one known minute.
 */
const PHONE_TIME = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 5_000);

/** Three settings of three kinds: a scaled number, a select of labels and a 12-hour time picker. */
async function changeThreeSettings(page: Page) {
  await page.getByLabel(/Float voltage/).fill('55.5');
  await page.getByLabel(/^Work mode/).selectOption({ label: 'Backup' });
  const chargeStart = page.getByRole('group', { name: /^Grid charge starts at/ });
  await chargeStart.getByLabel('Hour').selectOption('3');
  await chargeStart.getByLabel('Minute').selectOption('30');
  await chargeStart.getByLabel('am or pm').selectOption('am');
}

/** What the three settings and the auto-input clock (the phone's time) leave on the device. */
const THREE_SETTINGS = {
  batteryFloatVoltage: 5550,
  workMode: 2,
  chargeStart: 12_600,
  clockYear: PHONE_TIME.getFullYear(),
  clockMonth: PHONE_TIME.getMonth() + 1,
  clockDay: PHONE_TIME.getDate(),
  clockHour: PHONE_TIME.getHours(),
  clockMinute: PHONE_TIME.getMinutes(),
};

describe('configuring a device over Web Bluetooth, signed in, with its configuration history', () => {
  let peripheral: EmulatedPeripheral;
  let signedIn: Awaited<ReturnType<typeof signedInPage>>;
  let chooser: { prompts: () => number };
  let serial: string;

  beforeAll(async () => {
    signedIn = await signedInPage(browser, INSTALLER);
    const { page } = signedIn;
    await page.goto(appUrl('/devices-list'));
    const table = page.getByRole('table', { name: 'Devices' });
    serial = await table
      .getByRole('link', { name: /^HX5K-/ })
      .first()
      .innerText();
    const store = new MemoryConfigStore();
    const codes = codec.passwordCodes(PASSWORD);
    store.save(serial, Object.fromEntries(codes.map((c, i) => [`pass_${String(i).padStart(2, '0')}`, c])));
    peripheral = await EmulatedPeripheral.start(browser, { codec, product, serialNumber: serial, store });
    chooser = await answerChooser(page);
    await page.clock.setFixedTime(PHONE_TIME);
    await table.getByRole('link', { name: serial }).click();
    await page.getByRole('heading', { level: 1, name: serial }).waitFor();
  });
  afterAll(async () => {
    await signedIn?.context.close();
    await peripheral?.stop();
  });

  const history = () => signedIn.page.getByRole('list', { name: 'Configuration changes, newest first' });

  it('connects, unlocks with 0042…, writes three settings and the clock, the device holds exactly them and the history shows the change as people read it', async () => {
    const { page } = signedIn;
    await page.getByRole('region', { name: 'Configuration history' }).waitFor();
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(`Connected to ${serial}`).waitFor();
    expect(chooser.prompts()).toBe(1);
    await unlock(page);
    // The clock field is filled with the phone's time and says what Write does with it; connecting
    // does not count it as a change the person made.
    const clock = page.getByLabel(/^Device date and time/);
    expect(await clock.inputValue()).toBe(formatAutoInput(PHONE_TIME));
    await page.getByText("Write sets the device's clock to it", { exact: false }).waitFor();
    await page.getByText("The device's clock reads Jan 1, 2025, 12:00 am.").waitFor();
    await page.getByText('No changes').waitFor();
    // The form speaks the catalogue: labels, not firmware numbers; limits before a write.
    expect(
      await page
        .getByLabel(/^Work mode/)
        .locator('option')
        .allInnerTexts(),
    ).toEqual(['Self-use', 'Feed-in first', 'Backup', 'Off-grid']);
    expect(await page.getByText(/after midnight|0 self-use/).count()).toBe(0);
    await page.getByText('0 to 100 A').first().waitFor();
    const before = settings(peripheral.device);
    await changeThreeSettings(page);
    await page.getByText('3 changed').waitFor();
    await page.getByRole('button', { name: 'Write' }).click();
    await page.getByText('Written and verified').waitFor();
    expect(settings(peripheral.device)).toEqual({ ...before, ...THREE_SETTINGS });
    await page.getByText('No changes').waitFor();
    const newest = history().getByRole('listitem').first();
    await newest.getByText(/Float voltage.*→ ?55\.5 V/).waitFor();
    const text = await newest.innerText();
    expect(text).toContain(`by ${INSTALLER.email}, over Bluetooth`);
    expect(text).toContain(formatDateTime(PHONE_TIME));
    // An enumerated setting is recorded as its select shows it, times in 12-hour form.
    expect(text).toContain('Work mode: Self-use → Backup');
    expect(text).toContain('Grid charge starts at: 2:00 am → 3:30 am');
    expect(text).toContain(
      `Device date and time: Jan 1, 2025, 12:00 am → ${dateTimeText(formatAutoInput(PHONE_TIME))}`,
    );
    await saveScreenshot(
      page.getByRole('region', { name: 'Configure over Bluetooth' }),
      `ble-panel-signed-in-1280x800.png`,
    );
    await expectAccessible(page);
  });

  it('keeps a write made without signal as waiting to be sent, and sends it when back online', async () => {
    const { page, context } = signedIn;
    await context.setOffline(true);
    await page.getByLabel(/^Max charge current/).fill('43');
    await page.getByRole('button', { name: 'Write' }).click();
    await page.getByText('Written and verified').waitFor();
    const waiting = history().getByRole('listitem').filter({ hasText: 'waiting to be sent' });
    await waiting.getByText(/Max charge current.*→ ?43/).waitFor();
    expect(settings(peripheral.device).maxChargeCurrent).toBe(430);
    await context.setOffline(false);
    await waiting.waitFor({ state: 'detached' });
    const newest = history().getByRole('listitem').first();
    await newest.getByText(/Max charge current.*→ ?43/).waitFor();
    expect(await newest.innerText()).toContain(`by ${INSTALLER.email}`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await saveScreenshot(page, 'ble-signed-in-1280x800.png', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(page, 'ble-signed-in-390x844.png', { fullPage: true });
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('puts back what the device holds with Revert, and asks before running a command', async () => {
    const { page } = signedIn;
    const field = page.getByLabel(/^Max charge current/);
    const held = await field.inputValue();
    await field.fill('12');
    await page.getByText('1 changed').waitFor();
    await page.getByRole('button', { name: 'Revert' }).click();
    expect(await field.inputValue()).toBe(held);
    await page.getByText('No changes').waitFor();
    await page.getByRole('button', { name: 'Restart inverter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restart inverter?' });
    await dialog.getByText('This cannot be undone.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('writes to the demo device on this device’s page without a word in this device’s history', async () => {
    const { page } = signedIn;
    await page.getByRole('region', { name: 'Configuration history' }).waitFor();
    await page
      .getByRole('status', { name: 'Loading the configuration history' })
      .waitFor({ state: 'detached' });
    const entries = () => history().locator(':scope > li');
    const recorded = await entries().count();
    const disconnect = page.getByRole('button', { name: 'Disconnect' });
    if (await disconnect.count()) await disconnect.click();
    await page.getByText('Not connected', { exact: true }).waitFor();
    // The demo device's password is said where the demo is offered.
    const offer = await page.getByText('The demo device is a simulated', { exact: false }).innerText();
    const demoPassword = /with the password (\S+)\./.exec(offer)?.[1];
    expect(demoPassword).toBe('0000');
    await page.getByRole('button', { name: 'Use demo device' }).click();
    await page.getByText('Connected to the demo device', { exact: true }).waitFor();
    await page.getByText('what you write to it is not recorded here', { exact: false }).waitFor();
    await unlock(page, demoPassword);
    const maxCharge = page.getByLabel(/^Max charge current/);
    expect(await maxCharge.inputValue()).toBe('80');
    await maxCharge.fill('60');
    await page.getByRole('button', { name: 'Write' }).click();
    await page.getByText('Written and verified').waitFor();
    // Read the history again from the service: the demo write is not there.
    await page
      .getByRole('region', { name: 'Configuration history' })
      .getByRole('button', { name: 'Refresh', exact: true })
      .click();
    await page
      .getByRole('status', { name: 'Loading the configuration history' })
      .waitFor({ state: 'detached' });
    expect(await entries().count()).toBe(recorded);
    expect(await history().getByText('demo device').count()).toBe(0);
    expect(
      await history()
        .getByText(/→ ?60 A/)
        .count(),
    ).toBe(0);
    expect(settings(peripheral.device).maxChargeCurrent).not.toBe(600);
  });
});

describe('configuring a device over Web Bluetooth (Chromium Bluetooth emulation), signed out', () => {
  let peripheral: EmulatedPeripheral;
  let page: Page;
  let chooser: { prompts: () => number };

  beforeAll(async () => {
    peripheral = await EmulatedPeripheral.start(browser, {
      codec,
      product,
      serialNumber: SERIAL,
      store: storeWithPassword(),
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    chooser = await answerChooser(page);
    await page.clock.setFixedTime(PHONE_TIME);
    await page.goto(appUrl(`/device-details-old/${SERIAL}`));
  });
  afterAll(async () => {
    await page?.close();
    await peripheral?.stop();
  });

  it('connects through the chooser, unlocks with 0042…, writes three settings and the device holds exactly them', async () => {
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(`Connected to ${SERIAL}`).waitFor();
    expect(chooser.prompts()).toBe(1);
    await expect(page.getByRole('button', { name: 'Write' }).isDisabled()).resolves.toBe(true);
    await unlock(page);
    const before = settings(peripheral.device);
    await changeThreeSettings(page);
    await page.getByText('Changed').first().waitFor();
    await saveScreenshot(page, 'ble-panel-1280x800.png', { fullPage: true });
    await page.getByRole('button', { name: 'Write' }).click();
    await page.getByText('Written and verified').waitFor();
    expect(settings(peripheral.device)).toEqual({ ...before, ...THREE_SETTINGS });
    await expectAccessible(page);
  });

  it('keeps the edits and the old configuration when the link drops mid-write, and reconnects without the chooser', async () => {
    const before = settings(peripheral.device);
    await page.getByLabel(/^Max charge current/).fill('42');
    peripheral.dropOnNextWrite = true;
    await page.getByRole('button', { name: 'Write' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The configuration was not written' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'The connection was lost before the device confirmed the write',
    );
    expect(settings(peripheral.device)).toEqual(before);
    expect(await page.getByLabel(/^Max charge current/).inputValue()).toBe('42');
    await page.getByText(`Connected to ${SERIAL}`).waitFor({ timeout: 30_000 });
    await page.getByText('Unlocked: the settings can be changed.').waitFor();
    expect(chooser.prompts()).toBe(1);
    expect(await page.getByLabel(/^Max charge current/).inputValue()).toBe('42');
    await page.getByRole('button', { name: 'Write' }).click();
    await page.getByText('Written and verified').waitFor();
    expect(settings(peripheral.device).maxChargeCurrent).toBe(420);
  });
});

describe('configuring the demo device (simulated transport), signed out, on a phone', () => {
  it('says plainly when the browser has no Web Bluetooth, names the browsers that have it and offers the demo device', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    // As in Firefox or Safari: no navigator.bluetooth at all.
    await page.addInitScript('delete Navigator.prototype.bluetooth;');
    await page.goto(appUrl(`/device-details-old/${SERIAL}`));
    await page.getByText('Bluetooth is not available in this browser').waitFor();
    await page.getByText('Open Fleet Manager in Chrome, Edge or Opera', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Connect', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Use demo device' }).click();
    await page.getByText('Connected to the demo device', { exact: true }).waitFor();
    await page.close();
  });

  it('says why the device cannot be configured when its settings file does not arrive, and reads it again on Try again', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    let refuse = true;
    await page.route('**/convert-list.json', (route) =>
      refuse ? route.fulfill({ status: 503, body: 'busy' }) : route.continue(),
    );
    await page.goto(appUrl(`/device-details-old/${SERIAL}`));
    const alert = page.getByRole('alert').filter({ hasText: 'This device cannot be configured here' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('could not be read (HTTP 503)');
    refuse = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('button', { name: 'Use demo device' }).waitFor();
    expect(await alert.count()).toBe(0);
    await page.close();
  });

  it('unlocks, writes three settings and keeps them on the demo device', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const stored = JSON.stringify(
      Object.fromEntries(
        codec.passwordCodes(PASSWORD).map((c, i) => [`pass_${String(i).padStart(2, '0')}`, c]),
      ),
    );
    await page.addInitScript(
      ([key, value]) => {
        if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
      },
      [`demo-device:${SERIAL}`, stored] as const,
    );
    await page.clock.setFixedTime(PHONE_TIME);
    await page.goto(appUrl(`/device-details-old/${SERIAL}`));
    await page.getByRole('button', { name: 'Use demo device' }).click();
    await page.getByText('Connected to the demo device', { exact: true }).waitFor();
    await page.getByText('Signal strength: -', { exact: false }).waitFor();
    await unlock(page);
    await changeThreeSettings(page);
    await saveScreenshot(page, 'ble-panel-390x844.png', { fullPage: true });
    // The form is screens long on a phone: Write stays in reach at the screen's bottom, wherever
    // the form is scrolled to, above the fields it would otherwise be under.
    const write = page.getByRole('button', { name: 'Write' });
    for (const share of [0, 0.5]) {
      // The form's top (then its middle) at the screen's top.
      await page.evaluate((part) => {
        const form = document.querySelector('.fm-write-bar')?.closest('form')?.getBoundingClientRect();
        if (form) window.scrollTo(0, window.scrollY + form.top + part * form.height);
      }, share);
      const box = await write.boundingBox();
      expect(
        box && box.y + box.height <= 844 && box.y >= 0,
        `Write on screen, ${share * 100} % into the form`,
      ).toBe(true);
    }
    await write.click();
    // Its result shows beside it, where the person is, not at the form's end.
    const written = page.getByText('Written and verified');
    await written.waitFor();
    const shown = await written.boundingBox();
    expect(shown && shown.y >= 0 && shown.y + shown.height <= 844).toBe(true);
    await saveScreenshot(page, 'ble-write-bar-390x844.png');
    const kept = await page.evaluate((key) => window.localStorage.getItem(key), `demo-device:${SERIAL}`);
    expect(JSON.parse(kept ?? '{}')).toMatchObject(THREE_SETTINGS);
    await expectAccessible(page);
    await page.close();
  });
});
