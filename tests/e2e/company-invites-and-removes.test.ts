import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, INSTALLER, launchChromium, signIn } from './browser.ts';
import { dataList, heading, PHONE, screenshots, WIDE } from './screens-helpers.ts';
import { accessToken, configCall } from './service-calls.ts';

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
  contexts.push(context);
  return context.newPage();
}

/** The invitation link of the newest mail to `email`, as the server under test logged it. */
async function mailedInvitation(email: string): Promise<string> {
  const log = inject('serverLogPath');
  if (!log) throw new Error('the server log is needed to read the mail (not with E2E_BASE_URL)');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const text = readFileSync(log, 'utf8');
        const at = text.lastIndexOf(`[mail] to ${email}:`);
        link = at < 0 ? undefined : /(http\S+\/invitation#token=[A-Za-z0-9_-]{43})/.exec(text.slice(at))?.[1];
        return link;
      },
      { timeout: 20_000 },
    )
    .toBeTruthy();
  return (link as string).replace(/^http:\/\/localhost:\d+/, appUrl(''));
}

async function siteNamesSeen(page: Page): Promise<string[]> {
  await page.goto(appUrl('/sites-list'));
  await heading(page, 'Sites').waitFor();
  const list = page.getByRole('table', { name: 'Sites' }).or(page.getByText('No sites yet'));
  await list.first().waitFor();
  return page.getByRole('table', { name: 'Sites' }).getByRole('link').allInnerTexts();
}

describe('a company admin invites an installer by mail', () => {
  it('who joins from the link, sees the sites given to them and nothing else, and loses them once removed', async () => {
    const email = `nia.${randomUUID().slice(0, 8)}@solarpros.example`;
    const admin = await newPage();
    await admin.goto(appUrl('/login'));
    await signIn(admin, INSTALLER);
    await admin.waitForURL('**/landing');
    await admin.getByRole('link', { name: 'Company' }).click();
    await admin.getByText('Your role: Admin').waitFor();
    await admin.getByRole('textbox', { name: /^E-mail/ }).fill(email);
    await admin.getByRole('combobox', { name: 'Role', exact: true }).selectOption('installer');
    await admin.getByRole('button', { name: 'Send invitation' }).click();
    await admin.getByRole('table', { name: 'Open invitations' }).getByText(email).waitFor();
    await expectAccessible(admin);
    await screenshots(admin, 'company-admin', () => dataList(admin, 'Members').waitFor());

    // The link from the outbox, opened signed out in another browser: a new account joins.
    const link = await mailedInvitation(email);
    const invited = await newPage();
    await invited.goto(link);
    await invited.getByText(/You are invited to join/).waitFor();
    await expectAccessible(invited);
    await invited.getByLabel(/^Your name/).fill('Nia Newcomer');
    await invited.getByLabel(/^Choose a password/).fill('Newcomer#2026');
    await invited.getByLabel(/^Repeat the password/).fill('Newcomer#2026');
    await invited.getByRole('button', { name: /^Create account and join/ }).click();
    await invited.waitForURL('**/company');
    await invited.getByText('Your role: Installer').waitFor();
    // An installer of the company sees no site until one is given to them, and no invitations.
    expect(await invited.getByRole('table', { name: 'Open invitations' }).count()).toBe(0);
    expect(await siteNamesSeen(invited)).toEqual([]);

    // The admin gives them one site of the company, on the site's page.
    const samToken = await accessToken(INSTALLER);
    const sites = (await configCall('GET', '/fleet/site-list/2/0?pageSize=1', { token: samToken })).body as {
      items: { id: number; name: string }[];
    };
    const given = sites.items[0];
    if (!given) throw new Error('no site');
    await admin.goto(appUrl(`/site-details/${given.id}`));
    await heading(admin, given.name).waitFor();
    await screenshots(admin, 'site-give-member', () =>
      admin.getByRole('combobox', { name: 'Give a member of solarpros.example access' }).waitFor(),
    );
    // Nobody chosen, no role ticked: the form says what is missing and sends nothing.
    const roles = admin.getByRole('group', { name: 'Roles' });
    await roles.getByRole('checkbox', { name: 'Installer' }).uncheck();
    await admin.getByRole('button', { name: 'Add to site' }).click();
    await admin.getByText('Choose who gets access').waitFor();
    await admin.getByText('Choose at least one role').waitFor();
    await roles.getByRole('checkbox', { name: 'Installer' }).check();
    await admin.getByRole('combobox', { name: 'Give a member of solarpros.example access' }).click();
    await admin.getByRole('option', { name: `Nia Newcomer (${email})` }).click();
    await admin.getByRole('button', { name: 'Add to site' }).click();
    await admin
      .getByRole('table', { name: `People with access to ${given.name}` })
      .getByText('Nia Newcomer')
      .waitFor();
    // Given, they are no longer offered (the picker goes when no member is left to give).
    const picker = admin.getByRole('combobox', { name: 'Give a member of solarpros.example access' });
    if (await picker.count()) {
      await picker.click();
      await admin.getByRole('listbox').waitFor();
      expect(await admin.getByRole('option', { name: `Nia Newcomer (${email})` }).count()).toBe(0);
      await admin.keyboard.press('Escape');
    }
    await expectAccessible(admin);
    expect(await siteNamesSeen(invited)).toEqual([given.name]);
    // Another company's site is not theirs to open.
    await invited.goto(appUrl('/site-details/100'));
    await invited.getByText('No site 100').waitFor();

    // Removed: the next screen they open shows no site of the company, with the same session.
    await admin.goto(appUrl('/company'));
    await admin.getByRole('button', { name: 'Remove Nia Newcomer' }).click();
    await admin
      .getByRole('dialog', { name: 'Remove member' })
      .getByRole('button', { name: 'Remove from the company' })
      .click();
    await admin.getByText('Nia Newcomer no longer sees').waitFor();
    expect(await siteNamesSeen(invited)).toEqual([]);
    await invited.goto(appUrl(`/site-details/${given.id}`));
    await invited.getByText(`No site ${given.id}`).waitFor();
    await invited.goto(appUrl('/company'));
    await invited.getByText('You belong to no company').waitFor();
    await invited.setViewportSize(PHONE);
    await expectAccessible(invited);
  });
});
