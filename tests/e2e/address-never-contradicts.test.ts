import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, launchChromium, pathOf } from './browser.ts';
import {
  blockMaps,
  chooseCountry,
  FAKE_PLACE,
  fakePlaces,
  heading,
  screenshots,
  signedInPage,
  withMapsKey,
} from './screens-helpers.ts';
import { createInstaller } from './service-calls.ts';

let browser: Browser;
let installer: { context: BrowserContext; page: Page; errors: string[] };
/** An installer of this file's own: the sites it creates change no other test's counts. */
const ADA = { email: 'ada.address@solarpros.example', password: 'Address#2026' };

beforeAll(async () => {
  browser = await launchChromium();
  await createInstaller({ ...ADA, name: 'Ada Address' });
  installer = await signedInPage(browser, ADA);
});
afterAll(async () => {
  await browser?.close();
});

const street = (page: Page) => page.getByLabel(/^Street\s*\*?$/);
const line = (page: Page) => page.getByTestId('address-line');

/** Counts the sites the page asks the service to create. */
function siteCreations(page: Page) {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/config/sites'))
      posts.push(request.url());
  });
  return posts;
}

describe('a site address never contradicts itself', () => {
  it('keeps the line in step with the fields after a pick, and Enter in the search creates nothing', async () => {
    const { page } = installer;
    await withMapsKey(page);
    await fakePlaces(page);
    const posts = siteCreations(page);
    await page.goto(appUrl('/create-site'));
    await page.getByLabel(/^Site name/).fill('Market Street Solar');
    const search = page.getByRole('textbox', { name: /^Address/ });
    await search.click();
    await search.pressSequentially('1100 Cong');
    await search.press('Enter');
    // Enter in the search field picks nothing and saves nothing: the site is not half-created.
    expect(pathOf(page)).toBe('/create-site');
    expect(posts).toEqual([]);

    await page.getByRole('option', { name: FAKE_PLACE.formatted_address }).click();
    await line(page).filter({ hasText: FAKE_PLACE.formatted_address }).waitFor();
    expect(await page.getByLabel(/^Town or city/).inputValue()).toBe('Austin');
    expect(await page.getByLabel('Latitude').inputValue()).toBe(String(FAKE_PLACE.latitude));

    // The person changes the town and the rest: the line follows, and the picked position goes.
    await street(page).fill('Market St');
    await page.getByLabel('Street number').fill('12');
    await page.getByLabel('Postal code').fill('2000');
    await page.getByLabel(/^Town or city/).fill('Sydney');
    await page.getByLabel('State or region').fill('NSW');
    await chooseCountry(page, 'Australia');
    await line(page).filter({ hasText: '12 Market St, Sydney, NSW 2000, AU' }).waitFor();
    expect(await page.getByLabel('Latitude').inputValue()).toBe('');
    await page.getByText(/The position of the address picked before was cleared/).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'address-after-a-pick', () => line(page).waitFor());
    await page.getByRole('button', { name: 'Create site' }).click();
    await heading(page, 'Market Street Solar').waitFor();
    const facts = page.getByRole('region', { name: 'Site' });
    await facts.getByText('12 Market St, Sydney, NSW 2000, AU').waitFor();
    await facts.getByText('2000 Sydney').waitFor();
    await facts.getByText('NSW, AU').waitFor();
    await facts.getByText('No position').waitFor();
    expect(await facts.getByText(/Austin|TX|78701/).count()).toBe(0);
    await page.unrouteAll();
  });

  it('asks for the parts it lacks without maps, and saves nothing half-filled', async () => {
    const { page, errors } = installer;
    await withMapsKey(page);
    await blockMaps(page);
    errors.length = 0;
    const posts = siteCreations(page);
    await page.goto(appUrl('/create-site'));
    await page.getByText(/^Type the address: street and number, postal code, town or city/).waitFor();
    await page.getByLabel(/^Site name/).fill('Half Farm');
    await street(page).fill('12 Market St');
    await street(page).press('Enter');
    await page.getByText('Enter the town or city').waitFor();
    await page.getByText('Choose the country from the list').waitFor();
    expect(posts).toEqual([]);
    expect(pathOf(page)).toBe('/create-site');
    // The maps failure is only in the console (specification §8).
    expect(errors.some((text) => text.includes('Google Maps loading failed'))).toBe(true);
    expect(await page.getByText(/maps/i).count()).toBe(0);
    await expectAccessible(page);
    await screenshots(page, 'address-typed-by-hand', () =>
      page.getByText('Choose the country from the list').waitFor(),
    );
    await page.unrouteAll();
  });
});
