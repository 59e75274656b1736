import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUrl, launchChromium, saveScreenshot } from './browser.ts';
import { heading, PHONE, signedInPage } from './screens-helpers.ts';
import { accessToken, configCall, createInstaller } from './service-calls.ts';

let browser: Browser;
/** An installer of this test's own, with one site of theirs: what the key's call must list. */
const ME = {
  email: 'ada.reference@solarpros.example',
  password: 'Reference-roof#2026',
  name: 'Ada Reference',
};
const SITE = `Reference roof ${randomUUID().slice(0, 6)}`;
let myId = 0;
let me: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  myId = (await createInstaller(ME)).id;
  const made = await configCall('POST', '/sites', {
    token: await accessToken(ME),
    body: { name: SITE, displayAddress: '7 Reference Row, Leeds', latitude: 53.8, longitude: -1.55 },
  });
  expect(made.status).toBe(201);
  me = await signedInPage(browser, ME, { clipboard: true });
  // What the page's Content-Security-Policy refuses is reported as a console error too; this also
  // catches a violation the console would word differently.
  await me.page.evaluate(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP refused ${event.blockedURI} (${event.violatedDirective})`);
    });
  });
});
afterAll(async () => {
  await browser?.close();
});

/** Makes a read key on Account → API keys and copies it, as a person would; answers it. */
async function keyFromTheKeysScreen(page: Page): Promise<string> {
  await page.getByRole('link', { name: 'API keys' }).click();
  await heading(page, 'API keys').waitFor();
  await page.getByRole('button', { name: 'Create key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API key' });
  await create.getByLabel(/^Name/).fill('Reference page');
  await create.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  const key = await shown.getByRole('textbox', { name: /Reference page/ }).inputValue();
  await shown.getByRole('button', { name: 'Copy key' }).click();
  await shown.getByRole('button', { name: 'Copied' }).waitFor();
  await shown.getByRole('button', { name: 'Done' }).click();
  await shown.waitFor({ state: 'hidden' });
  return key;
}

/** The viewer's block of one call, e.g. `GET /fleet/sites/all/{userId}/{page}`. */
const operation = (page: Page, method: string, path: string) =>
  page.locator(`.opblock-${method.toLowerCase()}`).filter({
    has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
  });

describe('API reference (/api)', () => {
  it("tries a call with a key copied from the API keys screen (the user's own sites), refused once revoked", async () => {
    const { page } = me;
    const key = await keyFromTheKeysScreen(page);
    expect(key).toMatch(/^fm_pat_/);

    await page.getByRole('link', { name: 'API reference' }).click();
    await heading(page, 'API reference').waitFor();
    const sites = operation(page, 'GET', '/fleet/sites/all/{userId}/{page}');
    await sites.waitFor();

    // Authorize → personalKey: the key alone, no api-key header and no sign-in token.
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const personal = page
      .locator('.auth-container')
      .filter({ has: page.locator('code', { hasText: /^personalKey$/ }) });
    // Pasted from the clipboard, where the keys screen's Copy put it.
    const field = personal.locator('input');
    await field.focus();
    await page.keyboard.press('ControlOrMeta+V');
    expect(await field.inputValue()).toBe(key);
    // The viewer's own accessible names: "Apply credentials" is its Authorize, "Remove authorization" its Logout.
    await personal.getByRole('button', { name: 'Apply credentials' }).click();
    await personal.getByRole('button', { name: 'Remove authorization' }).waitFor();
    await personal.getByRole('button', { name: 'Close' }).click();
    await personal.waitFor({ state: 'detached' });

    const sent: Record<string, string>[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/config/fleet/sites/all/')) sent.push(request.headers());
    });
    await sites.locator('.opblock-summary-control').click();
    await sites.getByRole('button', { name: 'Try it out' }).click();
    await sites.locator('tr[data-param-name="userId"] input').fill(String(myId));
    await sites.locator('tr[data-param-name="page"] input').fill('0');
    await sites.getByRole('button', { name: 'Execute' }).click();

    const answer = sites.locator('.live-responses-table .response');
    await answer.locator('.response-col_status', { hasText: '200' }).waitFor();
    const body = await answer.locator('.response-col_description pre').first().innerText();
    const page0 = JSON.parse(body) as { total: number; items: { name: string }[] };
    expect(page0.items.map((site) => site.name)).toEqual([SITE]);
    expect(page0.total).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.authorization).toBe(`Bearer ${key}`);
    expect(sent[0]?.['api-key']).toBeUndefined();

    for (const [size, name] of [
      [{ width: 1440, height: 900 }, 'api-reference-1440'],
      [PHONE, 'api-reference-phone'],
    ] as const) {
      await page.setViewportSize(size);
      await answer.waitFor();
      await saveScreenshot(page, `${name}.png`, { fullPage: true, animations: 'disabled' });
    }
    // Nothing of the viewer spills past a phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // Revoked in another tab, the key the page still holds is refused at once.
    const keys = await me.context.newPage();
    await keys.goto(appUrl('/api-keys'));
    await keys.getByRole('button', { name: 'Revoke Reference page' }).click();
    await keys
      .getByRole('dialog', { name: 'Revoke API key' })
      .getByRole('button', { name: 'Revoke key' })
      .click();
    await keys.getByText('No API keys yet').waitFor();
    await keys.close();
    await sites.getByRole('button', { name: 'Execute' }).click();
    await answer.locator('.response-col_status', { hasText: '401' }).waitFor();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.authorization).toBe(`Bearer ${key}`);
    // The one error logged is the refused call's own "401": the next test starts with none.
    expect(me.errors.filter((error) => !error.includes('401'))).toEqual([]);
    me.errors.length = 0;
  });

  it('shows the monitoring service too, with the key offered on its calls', async () => {
    const { page } = me;
    await page.locator('label', { hasText: /^Monitoring$/ }).click();
    const latest = operation(page, 'GET', '/devices/{serial}/latest');
    await latest.waitFor();
    await latest.locator('.opblock-summary-control').click();
    // The example integrators copy, rendered from the document's Markdown.
    await latest.locator('pre', { hasText: '/monitoring/devices/HX5K-24-000123/latest' }).first().waitFor();
    expect(me.errors).toEqual([]);
  });
});
