import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUrl, launchChromium } from './browser.ts';
import { heading, signedInPage } from './screens-helpers.ts';
import { createInstaller } from './service-calls.ts';

/** Every screen the menu can offer, by its menu label. */
const SCREENS: Record<string, string> = {
  Home: '/landing',
  Sites: '/sites-list',
  Devices: '/devices-list',
  Users: '/users-list',
  Alarms: '/alarms',
  Company: '/company',
  'Site Manager': '/site-manager',
  Firmware: '/firmware',
  'Remote Debugger': '/remote-debugger',
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A new installer with this kind of address, made by the admin, and their password. */
async function newInstaller(domain: string) {
  const user = { email: `field-${randomUUID().slice(0, 8)}@${domain}`, password: 'Menu-rule#2026' };
  await createInstaller({ ...user, name: 'Menu Tester' });
  return user;
}

/** The screens' labels in the side menu. */
async function menuLabels(page: Page): Promise<string[]> {
  const menu = page.getByRole('navigation', { name: 'Fleet Manager' });
  await menu.getByRole('link', { name: 'Home' }).waitFor();
  return (await menu.getByRole('link').allInnerTexts()).map((text) => text.trim());
}

/** Whether a screen lets the person in: its own title shows, not "You don't have access". */
async function letsIn(page: Page, path: string): Promise<boolean> {
  await page.goto(appUrl(path));
  await page.waitForURL(`**${path}`);
  // The title of the screen, or of its refusal: either is drawn once the loader has answered.
  const title = heading(page, /.+/);
  await title.waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: /^Loading/ })
    .waitFor({ state: 'detached' });
  return !/don't have access/i.test(await title.innerText());
}

describe('the menu offers exactly the screens that let a person in', () => {
  it.each([
    ['a company user who is not an admin', 'fleet.example'],
    ['an installer of another company', 'solar-menu.example'],
  ])('for %s', async (_who, domain) => {
    const user = await newInstaller(domain);
    const { context, page } = await signedInPage(browser, user);
    try {
      const offered = await menuLabels(page);
      const letIn: string[] = [];
      for (const [label, path] of Object.entries(SCREENS)) if (await letsIn(page, path)) letIn.push(label);
      expect(offered.filter((label) => label in SCREENS)).toEqual(letIn);
      // The company address is what opens the staff screens; any other opens neither.
      const staffScreens = ['Site Manager', 'Remote Debugger'];
      expect(staffScreens.every((label) => letIn.includes(label))).toBe(domain === 'fleet.example');
    } finally {
      await context.close();
    }
  });
});
