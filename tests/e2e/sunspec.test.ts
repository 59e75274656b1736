import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import { expectAccessible } from './axe.ts';
import { appUrl, launchChromium, saveScreenshot } from './browser.ts';
import { pageSettled } from './page-settled.ts';

let browser: Browser;
let context: BrowserContext | undefined;
const codec = await loadCodec();

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});

/**
 * A signed-out page on /sunspec-config with both services unreachable: every call to them fails,
 * as in the field with no signal, and the configurator must not need one.
 */
async function openConfigurator(viewport = { width: 1280, height: 800 }) {
  context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.route(/\/(config|monitoring)\//, (route) => route.abort('internetdisconnected'));
  await page.goto(appUrl('/sunspec-config'));
  await page.getByRole('heading', { name: 'SunSpec configuration' }).waitFor();
  return { page };
}

async function loadDemo(page: Page) {
  await page.getByRole('button', { name: 'Load demo device' }).click();
  await page.getByRole('heading', { name: 'Model 1: Common' }).waitFor();
}

const models = (page: Page) => page.getByRole('navigation', { name: 'Models' });

describe('the SunSpec configurator', () => {
  it('opens signed out, loads the demo device, edits a setting and shows its write request', async () => {
    const { page } = await openConfigurator();
    expect(page.url()).toBe(appUrl('/sunspec-config'));
    await loadDemo(page);
    await expect(page.getByLabel('Manufacturer (Mn)').count()).resolves.toBe(0);
    await expect(page.getByRole('cell', { name: 'Fleet Demo Energy' }).isVisible()).resolves.toBe(true);

    await models(page)
      .getByRole('button', { name: /^121 · Basic Settings/ })
      .click();
    await page.getByRole('heading', { name: 'Model 121: Basic Settings' }).waitFor();
    const wmax = page.getByLabel('WMax (WMax)');
    await expect(wmax.inputValue()).resolves.toBe('10000');
    await wmax.fill('70000');
    await page.getByText('WMax (WMax) must be between 0 and 65534 W').first().waitFor();
    await wmax.fill('9000');
    await page.getByRole('heading', { name: 'Pending changes (1)' }).waitFor();

    const request = page.getByRole('listitem').filter({ hasText: 'Model 121: 1 register from 40152' });
    const frameText = (await request.locator('pre').innerText()).trim();
    expect(frameText.startsWith('01 10 9c d8 00 01 02 23 28')).toBe(true);
    // The CRC on the page is the one a Modbus device checks.
    expect(() =>
      codec.verifyFrame(Uint8Array.from(frameText.split(' ').map((b) => Number.parseInt(b, 16)))),
    ).not.toThrow();
    await saveScreenshot(page, 'sunspec-wide.png', { animations: 'disabled' });
    await saveScreenshot(page, 'sunspec-wide-full.png', { fullPage: true, animations: 'disabled' });
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Send to demo device' }).click();
    await page.getByText('The demo device took 1 write request').waitFor();
    await expect(page.getByLabel('WMax (WMax)').inputValue()).resolves.toBe('9000');
    await expect(page.getByRole('heading', { name: /^Pending changes/ }).count()).resolves.toBe(0);
  });

  it('prepares its models only once the page is in use, and loads the device asked for before they are', async () => {
    context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const modelFiles: string[] = [];
    page.on('request', (request) => {
      if (/\/model_\d+-[^/]*\.js$/.test(new URL(request.url()).pathname)) modelFiles.push(request.url());
    });
    await page.goto(appUrl('/sunspec-config'));
    const load = page.getByRole('button', { name: 'Load demo device' });
    // The prerendered button waits for the app (a press before it would be lost), then takes one.
    await expect.poll(() => load.isEnabled()).toBe(true);
    // Idle moments come and go: an untouched page checks and builds no model.
    await pageSettled(page);
    expect(modelFiles).toEqual([]);
    await load.click();
    await page.getByRole('heading', { name: 'Model 1: Common' }).waitFor();
    expect(modelFiles.length).toBeGreaterThan(0);
  });

  it('shows enums by symbol, bitfields as flags, not-implemented values as n/a, and finds points', async () => {
    const { page } = await openConfigurator();
    await loadDemo(page);
    await models(page)
      .getByRole('button', { name: /^103 · Inverter \(Three Phase\)/ })
      .click();
    await page.getByRole('heading', { name: 'Model 103: Inverter (Three Phase)' }).waitFor();
    await expect(page.getByRole('cell', { name: 'MPPT (4)' }).isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Transformer Temperature: not implemented').innerText()).resolves.toBe(
      'n/a',
    );

    await page.getByLabel('Search points').fill('Hz');
    await page.getByRole('heading', { name: /points? match “Hz”/ }).waitFor();
    await expect(page.getByRole('cell', { name: 'ECPNomHz', exact: false }).count()).resolves.toBeGreaterThan(
      0,
    );

    await page.getByLabel('Search points').fill('');
    await models(page)
      .getByRole('button', { name: /^64900 · Unknown model/ })
      .click();
    await page.getByText('No definition is loaded for model 64900').waitFor();
    await expect(page.getByRole('cell', { name: 'beef' }).isVisible()).resolves.toBe(true);
  });

  it('names what is wrong with a bad dump and keeps the device it had', async () => {
    const { page } = await openConfigurator();
    await loadDemo(page);
    await page.locator('input[type=file][accept*=".hex"]').setInputFiles({
      name: 'broken.hex',
      mimeType: 'text/plain',
      buffer: Buffer.from('5375 6e53 0001 0042 zz'),
    });
    await page.getByRole('alert').filter({ hasText: "line 1: 'z' is not a hex digit" }).waitFor();
    await expect(page.getByRole('heading', { name: 'Model 1: Common' }).isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Paste register dump…' }).click();
    await page.getByLabel('Register dump (hex)').fill('@40000\n5375 6e53 0001 0042 0000');
    await page.getByRole('button', { name: 'Read pasted dump' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Pasted dump: model 1 at register 40002 has length 66' })
      .waitFor();

    // A model shorter than its definition shows the points that fit, and says so.
    await page.getByLabel('Register dump (hex)').fill('@40000\n5375 6e53 0078 0002 0004 0000 ffff 0000');
    await page.getByRole('button', { name: 'Read pasted dump' }).click();
    await page.getByRole('heading', { name: 'Model 120: Nameplate' }).waitFor();
    await page.getByText(/The device gives model 120 a length of 2/).waitFor();
  });

  it('fits a phone', async () => {
    const { page } = await openConfigurator({ width: 390, height: 844 });
    await loadDemo(page);
    await page.getByLabel('Model', { exact: true }).selectOption({ label: '802 · Battery Base Model' });
    await page.getByRole('heading', { name: 'Model 802: Battery Base Model' }).waitFor();
    await saveScreenshot(page, 'sunspec-phone.png', { animations: 'disabled' });
    await page.getByLabel('Min Reserve Percent (SoCRsvMin)').fill('20');
    await page.getByRole('heading', { name: 'Pending changes (1)' }).waitFor();
    await page.getByRole('link', { name: 'review and copy the write requests' }).click();
    await saveScreenshot(page, 'sunspec-phone-changes.png', { animations: 'disabled' });
    await expectAccessible(page);
  });
});
