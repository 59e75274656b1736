import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, appUrl, downloaded, INSTALLER, launchChromium, saveScreenshot } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const devicesFound = (page: Page) => page.getByRole('list', { name: 'Devices found' }).getByRole('button');
const logRows = (page: Page) => page.getByRole('table', { name: 'Exchanges' }).locator('tbody tr');

/** Opens the page and answers the status of the service's online-devices call the page makes. */
async function openDebugger(page: Page): Promise<number> {
  const online = page.waitForResponse((r) => r.url().endsWith('/config/service-comms/devices/online'));
  await page.goto(appUrl('/remote-debugger'));
  await heading(page, 'Remote Debugger').waitFor();
  return (await online).status();
}

/** Picks a catalogue command in the composer's select. */
async function pickCommand(page: Page, name: RegExp) {
  await page.getByLabel('Catalogue command').and(page.locator('input')).click();
  await page.getByRole('option', { name }).click();
}

async function send(page: Page, answered: string) {
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('status').filter({ hasText: answered }).first().waitFor();
}

describe('Remote Debugger', () => {
  it('lets an admin read a demo device, send a catalogue command, see the decoded answer and save the log', async () => {
    const { page, errors } = await signedInPage(browser, ADMIN);
    await page.getByRole('link', { name: 'Remote Debugger' }).waitFor();
    await openDebugger(page);
    await page.evaluate(() => localStorage.removeItem('fleet.remoteDebugger.log'));
    await page.reload();
    await heading(page, 'Remote Debugger').waitFor();

    await devicesFound(page).first().waitFor();
    await expectAccessible(page);
    await page.getByLabel('Search by serial').fill('HX5K');
    // A device that is not online: never given the demo device in its place unasked.
    const offline = devicesFound(page).filter({ hasNotText: 'Online' }).first();
    await offline.waitFor();
    const serial = (await offline.locator('p').first().innerText()).trim();
    await offline.click();
    await page.getByText(`${serial} is not online now: choose Bluetooth`).waitFor();
    for (const path of ['Remote', 'Bluetooth', 'Demo device'])
      expect(await page.getByRole('radio', { name: path }).isChecked()).toBe(false);
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('radio', { name: 'Demo device' }).check();

    // The framed command is shown before sending: read configuration, opcode at byte 0.
    const framed = page.getByRole('listbox', { name: 'Framed command' });
    await framed.waitFor();
    expect(await framed.getByRole('option').count()).toBe(255);
    await send(page, 'Answered 0x81 with the configuration.');
    await page.getByRole('table', { name: 'Decoded values' }).waitFor();
    // The device password is masked: in the decoded values and in the bytes laid over it.
    const password = page
      .getByRole('table', { name: 'Decoded values' })
      .getByRole('row', { name: /^password / });
    expect(await password.locator('td').nth(1).innerText()).toBe('•••••••• (hidden)');
    await page
      .getByRole('listbox', { name: 'Answer frame' })
      .getByRole('option', { name: /^hidden, byte \d+, password, character 1 = hidden$/ })
      .waitFor();

    // The fields are laid over the answer's bytes: the keyboard moves from byte to byte.
    const answer = page.getByRole('listbox', { name: 'Answer frame' });
    await page.mouse.move(0, 0);
    await answer.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    const detail = await answer.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${detail}"]`).innerText()).toMatch(/^Byte 1 = 0x[0-9A-F]{2}: \w+ = /);

    await pickCommand(page, /^Read live values/);
    await send(page, 'Answered 0x83 with the configuration.');
    await expectAccessible(page);
    await screenshots(page, 'remote-debugger', () =>
      page.getByRole('table', { name: 'Decoded values' }).waitFor(),
    );

    // The payload as named fields: the codec writes each at its rawData position.
    await page.getByText('Named fields').click();
    await page.getByLabel('fwMajor', { exact: true }).fill('7');
    await framed.getByRole('option', { name: /^07, byte 1, opcode|^07, byte 1$|^07, byte 1,/ }).waitFor();
    await page.getByText('Hex bytes').click();

    // A command the device refuses until its password is given: the error code is named.
    await pickCommand(page, /^Restart inverter/);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Device error: locked').waitFor();

    // Bad hex cannot be sent: Send is off and the composer says why.
    await page.getByLabel('Payload (hex)').fill('12 zz');
    await page.getByRole('status').filter({ hasText: 'Payload: “zz” is not hex' }).waitFor();
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await page.getByLabel('Payload (hex)').fill('');
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isEnabled()).toBe(true);
    expect(await logRows(page).count()).toBe(3);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save as file' }).click();
    const saved = JSON.parse((await downloaded(await download)).toString('utf8'));
    expect(saved.kind).toBe('fleet-manager-remote-debugger-log');
    expect(saved.entries.map((e: { outcome: string }) => e.outcome)).toEqual([
      'device-error',
      'answered',
      'answered',
    ]);
    expect(saved.entries[2]).toMatchObject({ serialNumber: serial, path: 'demo' });

    // Kept across a reload; a file that is not a saved log is refused with a clear message.
    await page.reload();
    await heading(page, 'Remote Debugger').waitFor();
    await logRows(page).nth(2).waitFor();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Load a saved log' }).click();
    await (await chooser).setFiles({
      name: 'other.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"a":1}'),
    });
    await page.getByRole('alert').filter({ hasText: 'This file is not a saved debugger log' }).waitFor();
    expect(await logRows(page).count()).toBe(3);
    await screenshots(page, 'remote-debugger-log', () => logRows(page).nth(2).waitFor());
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('reads an online device remotely and sends it a catalogue command', async () => {
    const { page } = await signedInPage(browser, ADMIN);
    // The service lists the devices online now; a failure here is the product's, never a reason to skip.
    expect(await openDebugger(page)).toBe(200);
    const online = page
      .getByRole('list', { name: 'Devices found' })
      .getByRole('button')
      .filter({ hasText: 'Online' });
    await online.first().waitFor();
    await online.first().click();
    expect(await page.getByRole('radio', { name: 'Remote' }).isChecked()).toBe(true);
    await send(page, 'Answered 0x81 with the configuration.');
    await page.getByRole('table', { name: 'Decoded values' }).waitFor();
    await pickCommand(page, /^Read live values/);
    await send(page, 'Answered 0x83 with the configuration.');
    await logRows(page).filter({ hasText: '(remote)' }).nth(1).waitFor();
    await page.context().close();
  });

  it('has no menu item for an installer, who gets the no-access message on the URL', async () => {
    const { page } = await signedInPage(browser, INSTALLER);
    expect(await page.getByRole('link', { name: 'Remote Debugger' }).count()).toBe(0);
    await page.goto(appUrl('/remote-debugger'));
    await heading(page, "You don't have access to Remote Debugger").waitFor();
    await page.getByRole('alert').filter({ hasText: 'Remote Debugger is for company staff.' }).waitFor();
    await saveScreenshot(page, 'remote-debugger-installer.png');
    await page.context().close();
  });
});
