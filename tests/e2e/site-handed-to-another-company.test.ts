import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../pdf-text.ts';
import { expectAccessible } from './axe.ts';
import { appUrl, downloaded, INSTALLER, launchChromium, OWNER, signIn } from './browser.ts';
import { dataList, heading, screenshots, WIDE } from './screens-helpers.ts';
import { accessToken, configCall } from './service-calls.ts';

const OTHER_INSTALLER = { email: 'installer@brightvolt.example', password: 'Installer#2026' };
const OWNER_ID = 3;

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function signedIn(user: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(appUrl('/login'));
  await signIn(page, user);
  await page.waitForURL('**/landing');
  return page;
}

describe('an owner hands a site to another installer company', () => {
  it('that accepts: the first company gets 404 on it, the report names the new company', async () => {
    // Installer A's company made the site for the owner.
    const name = `Handover ${randomUUID().slice(0, 6)}`;
    const made = await configCall('POST', '/sites', {
      token: await accessToken(INSTALLER),
      body: {
        name,
        displayAddress: '4 Exchange St, Leeds',
        latitude: 53.8,
        longitude: -1.55,
        ownerId: OWNER_ID,
      },
    });
    expect(made.status).toBe(201);
    const siteId = (made.body as { id: number }).id;

    const owner = await signedIn(OWNER);
    await owner.goto(appUrl(`/site-details/${siteId}`));
    await heading(owner, name).waitFor();
    await owner.getByRole('button', { name: 'Hand over' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Hand the site to another installer company' });
    await dialog.getByLabel(/^E-mail of someone at the new company/).fill('nobody@nowhere.example');
    await dialog.getByRole('button', { name: 'Offer the site' }).click();
    await dialog
      .getByText('No other installer company has a member with the address nobody@nowhere.example')
      .waitFor();
    await expectAccessible(owner);
    await dialog.getByLabel(/^E-mail of someone at the new company/).fill(OTHER_INSTALLER.email);
    await dialog.getByRole('button', { name: 'Offer the site' }).click();
    await owner.getByText(`${name} is offered to`).waitFor();

    // The first company still has it until the other accepts.
    const first = await signedIn(INSTALLER);
    await first.goto(appUrl(`/site-details/${siteId}`));
    await heading(first, name).waitFor();

    // The other company's admin gives the company an address for the report, then accepts.
    const other = await signedIn(OTHER_INSTALLER);
    await other.getByRole('link', { name: 'Company' }).click();
    const offers = other.getByRole('table', { name: 'Sites offered to the company' });
    await offers.getByText(name).waitFor();
    await screenshots(other, 'company-site-offered', () =>
      dataList(other, 'Sites offered to the company').getByText(name).waitFor(),
    );
    const address = `${randomUUID().slice(0, 4)} Volt Street, Leeds`;
    await other.getByRole('button', { name: 'Edit details' }).click();
    await other.getByRole('textbox', { name: 'Address' }).fill(address);
    await other.getByRole('button', { name: 'Save details' }).click();
    await other.getByText(address).waitFor();
    await other.getByRole('button', { name: `Accept ${name}` }).click();
    await offers.getByText(name).waitFor({ state: 'detached' });

    // The first company's installer: 404, the site is not theirs to know of any more.
    await first.goto(appUrl(`/site-details/${siteId}`));
    await first.getByText(`No site ${siteId}`).waitFor();
    const answer = await configCall('GET', `/fleet/sites/${siteId}`, { token: await accessToken(INSTALLER) });
    expect(answer.status).toBe(404);

    // The new company works on it, and its report names the company, with its address.
    await other.goto(appUrl(`/site-details/${siteId}`));
    await heading(other, name).waitFor();
    const download = other.waitForEvent('download');
    await other.getByRole('button', { name: 'Commissioning report' }).click();
    const text = pdfText(await downloaded(await download)).replace(/\s+/g, ' ');
    expect(text).toContain('Company brightvolt.example');
    expect(text).toContain(`Company address ${address}`);
    expect(text).not.toContain('solarpros.example <');
  });
});
