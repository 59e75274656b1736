import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { appUrl, INSTALLER, launchChromium, OWNER, pathOf } from './browser.ts';
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

let browser: Browser;
let installer: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchChromium();
  installer = await signedInPage(browser, INSTALLER);
});
afterAll(async () => {
  await browser?.close();
});

const sitesTable = (page: Page) => page.getByRole('table', { name: 'Sites' });

describe('sites, as an installer', () => {
  it('finds a site by search and pages through the list, the URL keeping the place', async () => {
    const { page } = installer;
    await page.goto(appUrl('/sites-list'));
    await heading(page, 'Sites').waitFor();
    await page.getByText(/^1–50 of 70 · page 1 of 2$/).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'screens-sites-list', () =>
      sitesTable(page)
        .or(page.getByRole('list', { name: 'Sites' }))
        .first()
        .waitFor(),
    );

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText(/^51–70 of 70 · page 2 of 2$/).waitFor();
    expect(pathOf(page)).toBe('/sites-list?page=1');
    await page.reload();
    await page.getByText(/^51–70 of 70 · page 2 of 2$/).waitFor();

    const firstName = await sitesTable(page).getByRole('link').first().innerText();
    await page.getByLabel('Search sites').fill(firstName);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/page=0/);
    expect(new URL(page.url()).searchParams.get('q')).toBe(firstName);
    await sitesTable(page).getByRole('link', { name: firstName }).click();
    await heading(page, firstName).waitFor();
    await page.getByRole('table', { name: `People with access to ${firstName}` }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'screens-site-details', () => heading(page, firstName).waitFor());
  });

  it('creates a site with the address control over the Places API', async () => {
    const { page } = installer;
    await withMapsKey(page);
    await fakePlaces(page);
    await page.goto(appUrl('/create-site'));
    await heading(page, 'Create site').waitFor();
    await expectAccessible(page);
    await page.getByLabel(/^Site name/).fill('Capitol Solar');
    await page.getByRole('textbox', { name: /^Address/ }).click();
    await page.getByRole('textbox', { name: /^Address/ }).pressSequentially('1100 Cong');
    await page.getByRole('option', { name: FAKE_PLACE.formatted_address }).click();
    await expect(page.getByLabel('Street number').inputValue()).resolves.toBe('1100');
    await expect(page.getByLabel('Postal code').inputValue()).resolves.toBe('78701');
    await expect(page.getByLabel('Latitude').inputValue()).resolves.toBe(String(FAKE_PLACE.latitude));
    await screenshots(page, 'screens-create-site', () => heading(page, 'Create site').waitFor());
    // The script was asked for once, with the places library and the configured key.
    expect(await page.evaluate('window.__mapsScriptParams')).toEqual({
      key: 'test-maps-key',
      libraries: 'places',
    });
    await page.getByRole('button', { name: 'Create site' }).click();
    await heading(page, 'Capitol Solar').waitFor();
    expect(pathOf(page)).toMatch(/^\/site-details\/\d+$/);
    await page.getByText('30.27470, -97.74040').waitFor();
    await page.unrouteAll();
  });

  it('creates a site by hand when the maps script cannot load, then edits its address', async () => {
    const { page, errors } = installer;
    await withMapsKey(page);
    await blockMaps(page);
    errors.length = 0;
    await page.goto(appUrl('/create-site'));
    await page.getByLabel(/^Site name/).fill('Hand Typed Farm');
    // Without suggestions the hint says what to type, and there is no search field.
    await page.getByText(/^Type the address: street and number, postal code/).waitFor();
    expect(await page.getByRole('textbox', { name: /^Address/ }).count()).toBe(0);
    await page.getByLabel(/^Street\s*\*?$/).fill('Paddock Lane');
    await page.getByLabel('Street number').fill('12');
    await page.getByLabel(/^Town or city/).fill('Dripping Springs');
    await page.getByLabel('State or region').fill('TX');
    await chooseCountry(page, 'United States');
    await page
      .getByTestId('address-line')
      .filter({ hasText: '12 Paddock Lane, Dripping Springs, TX, US' })
      .waitFor();
    await page.getByLabel('Latitude').fill('91');
    await page.getByLabel('Longitude').fill('-98.08');
    await page.getByRole('button', { name: 'Create site' }).click();
    // A clear message next to the field, and nothing typed is lost.
    await page.getByText('Latitude is a number from -90 to 90').waitFor();
    await expect(page.getByLabel(/^Street\s*\*?$/).inputValue()).resolves.toBe('Paddock Lane');
    expect(errors.some((text) => text.includes('Google Maps loading failed'))).toBe(true);
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await page.getByLabel('Latitude').fill('30.19');
    await page.getByRole('button', { name: 'Create site' }).click();
    await heading(page, 'Hand Typed Farm').waitFor();
    const siteUrl = pathOf(page);

    await page.getByRole('link', { name: 'Edit address' }).click();
    await heading(page, 'Edit site address').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'screens-edit-site-address', () => heading(page, 'Edit site address').waitFor());
    await page.getByLabel('Street number').fill('14');
    await page.getByLabel('Postal code').fill('78620');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.waitForURL(`**${siteUrl}`);
    await heading(page, 'Hand Typed Farm').waitFor();

    await page.goto(appUrl('/sites-list?page=0&q=Paddock'));
    await sitesTable(page)
      .getByRole('cell', { name: '14 Paddock Lane, Dripping Springs, TX 78620, US' })
      .waitFor();
    await page.unrouteAll();
  });

  it('shows an empty search plainly', async () => {
    const { page } = installer;
    await page.goto(appUrl('/sites-list?q=zz-no-such-site'));
    await page.getByText('No site matches “zz-no-such-site”').waitFor();
  });
});

describe('sites, as an owner', () => {
  it('says so when an owner opens a site that is not theirs, or one that does not exist', async () => {
    const owner = await signedInPage(browser, OWNER);
    const { page } = owner;
    // A site they hold no record of is as unknown as one that does not exist.
    await page.goto(appUrl('/site-details/100'));
    await heading(page, 'No site 100').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'screens-site-forbidden', () => heading(page, 'No site 100').waitFor());
    await page.goto(appUrl('/site-details/999999'));
    await heading(page, 'No site 999999').waitFor();
    await page.goto(appUrl('/site-details/abc'));
    await heading(page, 'No site abc').waitFor();
    await owner.context.close();
  });
});
