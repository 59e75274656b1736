import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { MemoryConfigStore } from '../../src/device-sim/config-store.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';
import connectionModel from '../machines/models/ble-connection.ts';
import writeModel from '../machines/models/ble-write.ts';
import type { MachineModel, ModelDriver } from '../machines/paths/model-entry.ts';
import { EmulatedPeripheral } from './ble-peripheral.ts';
import { appUrl, BLUETOOTH_ARGS, launchChromium } from './browser.ts';
import { browserPaths, type Reach, uncheckedStates } from './model-paths-browser.ts';

const SERIAL = 'HX5K-24-000123';
const PASSWORD = '0042abc';
const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000');
if (!hybrid) throw new Error('HX-5000 missing');
const product = hybrid;

let browser: Browser;
let codec: Codec;
const cleanUps: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  [browser, codec] = await Promise.all([launchChromium(BLUETOOTH_ARGS), loadCodec()]);
});
afterEach(async () => {
  for (const clean of cleanUps.splice(0).reverse()) await clean();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * Answers the page's Bluetooth chooser as a person would, one prompt at a time: `close` closes it,
 * `pick` picks the device (a second pick of one prompt would crash the browser: one answer each).
 */
async function chooserAnswers(page: Page, answers: Array<'close' | 'pick'>) {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('DeviceAccess.enable');
  const answered = new Set<string>();
  let shown = 0;
  cdp.on('DeviceAccess.deviceRequestPrompted', (event) => {
    if (answered.has(event.id)) return;
    const answer = answers[answered.size];
    const device = event.devices[0];
    if (answer === 'pick' && !device) return;
    answered.add(event.id);
    shown += 1;
    if (answer === 'close') void cdp.send('DeviceAccess.cancelPrompt', { id: event.id });
    else if (device) void cdp.send('DeviceAccess.selectPrompt', { id: event.id, deviceId: device.id });
  });
  return { shown: () => shown };
}

/** The device page, signed out, with an emulated peripheral answered by the real simulator. */
async function deviceScreen(answers: Array<'close' | 'pick'>) {
  const store = new MemoryConfigStore();
  const codes = codec.passwordCodes(PASSWORD);
  store.save(SERIAL, Object.fromEntries(codes.map((c, i) => [`pass_${String(i).padStart(2, '0')}`, c])));
  const peripheral = await EmulatedPeripheral.start(browser, { codec, product, serialNumber: SERIAL, store });
  cleanUps.push(() => peripheral.stop());
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  cleanUps.push(() => page.close());
  const chooser = await chooserAnswers(page, answers);
  await page.goto(appUrl(`/device-details-old/${SERIAL}`));
  await page.getByRole('button', { name: 'Connect' }).waitFor();
  return { page, peripheral, chooser };
}

const status = (page: Page) => page.getByTestId('connection-state');
/** The Bluetooth problems shown (not the notice that the settings wait for the password). */
const problems = (page: Page) =>
  page.getByRole('alert').filter({ hasText: 'Bluetooth problem' }).allInnerTexts();
const connected = (page: Page) => page.getByText(`Connected to ${SERIAL}`).waitFor({ timeout: 30_000 });
const maxChargeCurrent = (peripheral: EmulatedPeripheral) =>
  peripheral.device.currentRaw().maxChargeCurrent ?? NaN;

function run(entry: MachineModel, reach: Reach, driver: () => ModelDriver, atLeast: number) {
  describe(`the ${entry.title} model, in the browser: its shortest paths over Bluetooth emulation`, () => {
    const paths = browserPaths(entry, reach);
    it('has shortest paths the browser can run, and checks every state they reach', () => {
      expect(paths.length).toBeGreaterThanOrEqual(atLeast);
      expect(uncheckedStates(paths, driver())).toEqual([]);
    });
    for (const path of paths) {
      it(`${path.number}: ${path.steps.map((s) => s.event).join(' → ')} reaches ${path.target}`, async () => {
        await path.path.test(driver());
      });
    }
  });
}

/**
 * The connection model: Connect through the chooser (or close it), Disconnect, and the device going
 * out of range and coming back. Reading again on demand, a damaged answer, Bluetooth being off and
 * the connection failing part-way are walked by the machine paths only.
 */
run(
  connectionModel,
  {
    'ble.connect': ['idle', 'chooserClosed'],
    'chooser.closed': ['idle'],
    'ble.disconnect': ['ready', 'reconnecting', 'reconnected'],
    'link.dropped': ['ready'],
    'backoff.elapsed': ['reconnecting'],
  },
  () => {
    let screen: Awaited<ReturnType<typeof deviceScreen>> | null = null;
    /** How the chooser is answered, prompt by prompt; the screen opens at the first event. */
    const plan: Array<'close' | 'pick'> = [];
    const s = async () => {
      if (!screen) screen = await deviceScreen(plan);
      return screen;
    };
    const idle = async () => {
      const { page } = await s();
      await expect.poll(() => status(page).innerText()).toBe('Not connected');
      expect(await problems(page)).toEqual([]);
    };
    const ready = async () => {
      const { page } = await s();
      await connected(page);
      expect(await problems(page)).toEqual([]);
    };
    return {
      events: {
        'chooser.closed': async () => {
          plan.push('close', 'pick');
          const { page } = await s();
          await page.getByRole('button', { name: 'Connect' }).click();
        },
        'ble.connect': async () => {
          if (plan.length === 0) plan.push('pick');
          const { page } = await s();
          await page.getByRole('button', { name: 'Connect' }).click();
          await connected(page);
        },
        'ble.disconnect': async () => {
          const { page } = await s();
          await page.getByRole('button', { name: 'Disconnect' }).click();
        },
        'link.dropped': async () => {
          const { peripheral } = await s();
          peripheral.away = true;
          await peripheral.drop();
        },
        'backoff.elapsed': async () => (await s()).peripheral.comeBack(),
      },
      states: {
        idle: () => undefined,
        chooserClosed: async () => {
          await idle();
          expect((await s()).chooser.shown()).toBe(1);
        },
        ready: async () => {
          await ready();
          expect((await s()).chooser.shown()).toBe(plan.length);
        },
        reconnecting: async () => {
          const { page } = await s();
          await page.getByText('Connection lost: reconnecting', { exact: false }).waitFor();
        },
        reconnected: async () => {
          await ready();
          // Back without the chooser.
          expect((await s()).chooser.shown()).toBe(1);
        },
        disconnected: idle,
      },
    };
  },
  3,
);

/**
 * The write model: a valid form written and verified (twice), an invalid one refused, the link
 * dropping before the device took the write, and Revert putting the result away. Faults inside the
 * device's answers are walked by the machine paths only.
 */
run(
  writeModel,
  {
    'write.valid': ['idle', 'done', 'invalid', 'lost'],
    'write.invalid': ['idle'],
    'write.linkDropped': ['idle'],
    'config.dismiss': ['invalid', 'lost'],
  },
  () => {
    let before = 0;
    let typed = 40;
    let opened: Promise<Awaited<ReturnType<typeof deviceScreen>>> | null = null;
    /** The device screen, connected and unlocked, opened at the path's first step. */
    const open = async () => {
      const screen = await deviceScreen(['pick']);
      const { page } = screen;
      await page.getByRole('button', { name: 'Connect' }).click();
      await connected(page);
      await page.getByLabel('Device password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Unlock' }).click();
      await page.getByText('Unlocked: the settings can be changed.').waitFor();
      return screen;
    };
    const started = () => {
      opened ??= open();
      return opened;
    };
    const field = async () => (await started()).page.getByLabel(/^Max charge current/);
    const write = async (value: string) => {
      const { page, peripheral } = await started();
      await page.getByText('Unlocked: the settings can be changed.').waitFor({ timeout: 30_000 });
      before = maxChargeCurrent(peripheral);
      await (await field()).fill(value);
      await page.getByRole('button', { name: 'Write' }).click();
    };
    const notWritten = async (text: string) => {
      const { page, peripheral } = await started();
      const alert = page.getByRole('alert').filter({ hasText: 'The configuration was not written' });
      await alert.getByText(text, { exact: false }).waitFor();
      expect(maxChargeCurrent(peripheral)).toBe(before);
    };
    const done = async () => {
      const { page, peripheral } = await started();
      await page.getByText('Written and verified').waitFor();
      expect(maxChargeCurrent(peripheral)).toBe(typed * 10);
    };
    return {
      events: {
        'write.valid': async () => {
          typed += 1;
          await write(String(typed));
        },
        'write.invalid': () => write('120'),
        'write.linkDropped': async () => {
          (await started()).peripheral.dropOnNextWrite = true;
          await write('42');
        },
        'config.dismiss': async () => (await started()).page.getByRole('button', { name: 'Revert' }).click(),
      },
      states: {
        idle: async () => {
          const { page } = await started();
          expect(await page.getByRole('button', { name: 'Write' }).isEnabled()).toBe(true);
        },
        done,
        doneAgain: done,
        invalid: async () => {
          const { page, peripheral } = await started();
          // The form refuses it at the field: nothing is sent.
          await page.getByText('Max charge current must be at most 100 A').waitFor();
          expect(maxChargeCurrent(peripheral)).toBe(before);
        },
        lost: () => notWritten('The connection was lost before the device confirmed the write'),
        dismissed: async () => {
          const { page, peripheral } = await started();
          await page
            .getByRole('alert')
            .filter({ hasText: 'The configuration was not written' })
            .waitFor({ state: 'detached' });
          // The form shows what the device holds again.
          expect(Number(await (await field()).inputValue()) * 10).toBe(maxChargeCurrent(peripheral));
        },
      },
    };
  },
  4,
);
