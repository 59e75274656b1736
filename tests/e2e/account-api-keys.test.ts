import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, launchChromium } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';
import { createInstaller } from './service-calls.ts';

let browser: Browser;
/** An installer of this test's own: their keys are theirs alone. */
const ME = { email: 'kim.keys@solarpros.example', password: 'Keys-roof#2026', name: 'Kim Keys' };
let me: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  await createInstaller(ME);
  me = await signedInPage(browser, ME, { clipboard: true });
});
afterAll(async () => {
  await browser?.close();
});

/** A call to the monitoring service with nothing but an API key. */
async function withKey(key: string): Promise<number> {
  const response = await fetch(new URL('/monitoring/me', appUrl('/')), {
    headers: { authorization: `Bearer ${key}` },
  });
  await response.body?.cancel();
  return response.status;
}

describe('Account → API keys', () => {
  it('creates a key that is shown once, copies it, and revokes it after a confirmation', async () => {
    const { page } = me;
    await page.getByRole('link', { name: 'API keys' }).click();
    await heading(page, 'API keys').waitFor();
    await page.getByText('No API keys yet').waitFor();

    await page.getByRole('button', { name: 'Create key' }).click();
    const create = page.getByRole('dialog', { name: 'Create API key' });
    await create.getByRole('button', { name: 'Create key' }).click();
    await create.getByText('Give the key a name.').waitFor();
    await create.getByLabel(/^Name/).fill('Energy spreadsheet');
    await create.getByText('Read and write').click();
    await create.getByLabel('Expires').and(create.locator('input')).click();
    await page.getByRole('option', { name: 'No expiry' }).click();
    await create.getByText('A key that never expires').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'account-api-keys-create', () => create.getByLabel(/^Name/).waitFor());
    await create.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.getByText('This key will not be shown again.', { exact: false }).waitFor();
    const key = await shown.getByRole('textbox', { name: /Energy spreadsheet/ }).inputValue();
    expect(key).toMatch(/^fm_pat_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectAccessible(page);
    await screenshots(page, 'account-api-keys-shown', () =>
      shown.getByRole('button', { name: 'Copied' }).waitFor(),
    );
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'hidden' });
    // Never shown again: not in the page, not after a reload.
    expect(await page.content()).not.toContain(key);

    expect(await withKey(key)).toBe(200);
    await page.reload();
    const item = page.getByRole('listitem', { name: 'Energy spreadsheet' });
    await item.getByText(/^Last used .+ from /).waitFor();
    await item.getByText('Never expires', { exact: false }).waitFor();
    await item.getByText('Read and write').waitFor();
    expect(await page.content()).not.toContain(key);
    await screenshots(page, 'account-api-keys-list', () => item.waitFor());

    await item.getByRole('button', { name: 'Revoke Energy spreadsheet' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await withKey(key)).toBe(200);
    await item.getByRole('button', { name: 'Revoke Energy spreadsheet' }).click();
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByText('No API keys yet').waitFor();
    expect(await withKey(key)).toBe(401);
    expect(me.errors).toEqual([]);
  });
});
