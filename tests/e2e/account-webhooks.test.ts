import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, launchChromium, saveScreenshot } from './browser.ts';
import { heading, screenshots, signedInPage, WIDE } from './screens-helpers.ts';
import { accessToken, configCall, createInstaller } from './service-calls.ts';

let browser: Browser;
/** An installer of this test's own: their webhooks are theirs alone. */
const ME = { email: 'wes.hooks@solarpros.example', password: 'Hooks-roof#2026', name: 'Wes Hooks' };
let me: { context: BrowserContext; page: Page; errors: string[] };
const SITE = 'Harbour warehouse (webhooks)';

/** The receiving system: answers `status`, keeps each request. */
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let status = 200;
let receiver: Server;
let receiverUrl = '';

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = status;
      response.end(status === 200 ? 'thanks' : 'busy, try later');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/fleet`;
  browser = await launchChromium();
  const { id } = await createInstaller(ME);
  // A site of their own, for a webhook limited to it.
  const admin = await accessToken(ADMIN);
  const site = await configCall('POST', '/sites', {
    token: admin,
    body: {
      name: SITE,
      displayAddress: 'Hafenstraße 4, 20457 Hamburg, DE',
      streetName: 'Hafenstraße',
      streetNumber: '4',
      postalCode: '20457',
      locality: 'Hamburg',
      country: 'DE',
      latitude: 53.543,
      longitude: 9.966,
    },
  });
  expect(site.status).toBe(201);
  const granted = await configCall('PUT', '/fleet/site-access/change-roles', {
    token: admin,
    body: { siteId: (site.body as { id: number }).id, userId: id, roles: ['installer'] },
  });
  expect(granted.status).toBeLessThan(300);
  me = await signedInPage(browser, ME, { clipboard: true });
});
afterAll(async () => {
  await browser?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('Account → Webhooks', () => {
  it('adds a webhook with its secret shown once, sends a test, sends a failed delivery again, switches it off and deletes it', async () => {
    const { page } = me;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await heading(page, 'Webhooks').waitFor();
    await page.getByText('No webhooks yet').waitFor();

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const add = page.getByRole('dialog', { name: 'Add webhook' });
    await add.getByRole('checkbox', { name: /An alarm is raised/ }).uncheck();
    await add.getByRole('checkbox', { name: /An alarm clears/ }).uncheck();
    await add.getByRole('button', { name: 'Add webhook' }).click();
    await add.getByText('Give the address to send events to.').waitFor();
    await add.getByText('Pick at least one event.').waitFor();
    await add.getByLabel(/^Address/).fill(receiverUrl);
    await add.getByRole('checkbox', { name: /A device is put on a site/ }).check();
    await add.getByRole('checkbox', { name: /An alarm is raised/ }).check();
    // Every site until one is picked: here the one site this installer has.
    const sites = add.getByRole('combobox', { name: 'Sites' });
    await expect.poll(() => sites.inputValue()).toBe('Every site you see');
    await expect.poll(() => sites.isEnabled()).toBe(true);
    await sites.click();
    await page.getByRole('option', { name: SITE }).click();
    await expect.poll(() => sites.inputValue()).toBe(SITE);
    await expectAccessible(page);
    await screenshots(page, 'account-webhooks-add', () => add.getByLabel(/^Address/).waitFor());
    await add.getByRole('button', { name: 'Add webhook' }).click();

    const shown = page.getByRole('dialog', { name: "Your webhook's signing secret" });
    await shown.getByText('This secret will not be shown again.', { exact: false }).waitFor();
    const secret = await shown.getByRole('textbox').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await shown.getByRole('button', { name: 'Copy secret' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectAccessible(page);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'hidden' });
    expect(await page.content()).not.toContain(secret.slice(6));

    await page.reload();
    const item = page.getByRole('listitem', { name: receiverUrl });
    await item.getByText('An alarm is raised · A device is put on a site').waitFor();
    await item.getByText('On', { exact: true }).waitFor();
    await item.getByText(`${SITE} only`, { exact: false }).waitFor();
    expect(await page.content()).not.toContain(secret.slice(6));
    await screenshots(page, 'account-webhooks-list', () => item.waitFor());

    // A test event, signed with the secret the dialog showed.
    await item.getByRole('button', { name: `Deliveries of ${receiverUrl}` }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries' });
    await log.getByText('Nothing was sent yet.', { exact: false }).waitFor();
    await log.getByRole('button', { name: 'Send test event' }).click();
    const delivered = log.getByRole('listitem', { name: 'webhook.test Delivered' });
    await delivered.getByText(/HTTP 200 · \d+ ms · “thanks”/).waitFor();
    expect(received).toHaveLength(1);
    const event = new Webhook(secret).verify(
      received[0]?.body ?? '',
      received[0]?.headers as Record<string, string>,
    ) as { type: string };
    expect(event.type).toBe('webhook.test');

    // The receiver is busy: the next test fails, and is sent again, with the same webhook-id, once it is not.
    status = 503;
    await log.getByRole('button', { name: 'Send test event' }).click();
    const failed = log.getByRole('listitem', { name: 'webhook.test Failed' });
    await failed.getByText(/HTTP 503/).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'account-webhooks-deliveries', () => failed.waitFor());
    status = 200;
    await failed.getByRole('button', { name: 'Send again' }).click();
    await log.getByRole('listitem', { name: 'webhook.test Delivered' }).nth(1).waitFor();
    expect(received).toHaveLength(3);
    expect(received[2]?.headers['webhook-id']).toBe(received[1]?.headers['webhook-id']);
    await page.setViewportSize({ width: 1440, height: 900 });
    await saveScreenshot(page, 'account-webhooks-deliveries-1440.png', { fullPage: true });
    await page.setViewportSize(WIDE);
    await log.getByRole('button', { name: 'Close' }).click();
    await log.waitFor({ state: 'hidden' });

    await item.getByRole('button', { name: `Switch off ${receiverUrl}` }).click();
    await item.getByText('Off', { exact: true }).waitFor();
    await item.getByText('Switched off by its owner', { exact: false }).waitFor();

    await item.getByRole('button', { name: `Delete ${receiverUrl}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete webhook' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await item.getByRole('button', { name: `Delete ${receiverUrl}` }).click();
    await confirm.getByRole('button', { name: 'Delete webhook' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByText('No webhooks yet').waitFor();
    expect(me.errors).toEqual([]);
  });
});
