import type { Browser, BrowserContext, Page } from 'playwright-core';
import { appUrl, saveScreenshot, signIn } from './browser.ts';

/** A screen's main heading. */
export const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** A list of the app (DataList): a table when wide, a list of cards on a phone. */
export const dataList = (page: Page, name: string) =>
  page.getByRole('table', { name }).or(page.getByRole('list', { name }));

export const WIDE = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * One signed-in page per user for a whole test file: the sign-in rate limit counts every
 * sign-in, and a copied refresh token would be spent twice, so the page is reused.
 */
export async function signedInPage(
  browser: Browser,
  user: { email: string; password: string },
  options: {
    /** The browser's IANA time zone (the machine's when left out), e.g. a person far from a site. */
    timezoneId?: string;
    /** The app may write and the test read the clipboard (a secret's Copy button). */
    clipboard?: boolean;
  } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const { clipboard = false, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce', ...contextOptions });
  if (clipboard)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(appUrl('/')).origin,
    });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(appUrl('/login'));
  await signIn(page, user);
  await page.waitForURL('**/landing');
  return { context, page, errors };
}

/**
 * The current screen at 1280x800 and at 390x844, ready at each (and saved as screenshots when
 * they are asked for, SAVE_SCREENSHOTS), then back to wide.
 */
export async function screenshots(page: Page, name: string, ready: () => Promise<unknown>) {
  await page.setViewportSize(WIDE);
  await ready();
  await saveScreenshot(page, `${name}-wide.png`, { fullPage: true, animations: 'disabled' });
  await page.setViewportSize(PHONE);
  await ready();
  await saveScreenshot(page, `${name}-phone.png`, { fullPage: true, animations: 'disabled' });
  await page.setViewportSize(WIDE);
}

/** Picks a country from the site form's list by its English name, as a person would: type, then choose. */
export async function chooseCountry(page: Page, name: string) {
  await page.getByRole('combobox', { name: /^Country/ }).fill(name);
  await page.getByRole('option', { name, exact: true }).click();
}

/** Serve the app a maps key, so the address control tries to load the maps script. */
export async function withMapsKey(page: Page) {
  await page.route('**/app-config.json', async (route) => {
    const response = await route.fetch();
    const config = await response.json();
    await route.fulfill({ response, json: { ...config, mapsApiKey: 'test-maps-key' } });
  });
}

/** The maps script never loads, as on a machine without internet. */
export async function blockMaps(page: Page) {
  await page.route('https://maps.googleapis.com/**', (route) => route.abort('internetdisconnected'));
}

/** The place the fake Places API suggests for any text of three characters or more. */
export const FAKE_PLACE = {
  formatted_address: '1100 Congress Ave, Austin, TX 78701, USA',
  place_id: 'fake-place-capitol',
  latitude: 30.2747,
  longitude: -97.7404,
};

/**
 * A small stand-in for the Places library: `importLibrary('places')` gives an `Autocomplete`
 * that lists one suggestion under the field and, when it is clicked, fires `place_changed`.
 * It records the options it was built with in `window.__placesOptions`.
 */
export function fakePlacesScript(requestUrl: string): string {
  const params = new URL(requestUrl).searchParams;
  const place = {
    place_id: FAKE_PLACE.place_id,
    id: 'gm-capitol',
    formatted_address: FAKE_PLACE.formatted_address,
    name: '1100 Congress Ave',
    vicinity: 'Austin',
    url: 'https://maps.example/capitol',
    icon: 'https://maps.example/icon.png',
    address_components: [
      { long_name: '1100', short_name: '1100', types: ['street_number'] },
      { long_name: 'Congress Avenue', short_name: 'Congress Ave', types: ['route'] },
      { long_name: 'Austin', short_name: 'Austin', types: ['locality', 'political'] },
      { long_name: 'Texas', short_name: 'TX', types: ['administrative_area_level_1', 'political'] },
      { long_name: 'United States', short_name: 'US', types: ['country', 'political'] },
      { long_name: '78701', short_name: '78701', types: ['postal_code'] },
    ],
  };
  return `(() => {
    window.__mapsScriptParams = ${JSON.stringify({ key: params.get('key'), libraries: params.get('libraries') })};
    const place = ${JSON.stringify(place)};
    place.geometry = { location: { lat: () => ${FAKE_PLACE.latitude}, lng: () => ${FAKE_PLACE.longitude} } };
    class Autocomplete {
      constructor(input, options) {
        window.__placesOptions = options;
        const listeners = [];
        this.listeners = listeners;
        const list = document.createElement('ul');
        list.setAttribute('role', 'listbox');
        list.setAttribute('aria-label', 'Address suggestions');
        list.style.cssText = 'position:absolute;z-index:10000;background:#fff;border:1px solid #888;margin:0;padding:4px;list-style:none';
        list.hidden = true;
        document.body.append(list);
        input.addEventListener('input', () => {
          list.replaceChildren();
          list.hidden = input.value.length < 3;
          if (list.hidden) return;
          const box = input.getBoundingClientRect();
          list.style.left = box.left + window.scrollX + 'px';
          list.style.top = box.bottom + window.scrollY + 'px';
          const option = document.createElement('li');
          option.setAttribute('role', 'option');
          option.setAttribute('aria-selected', 'false');
          option.textContent = place.formatted_address;
          option.addEventListener('click', () => {
            input.value = place.formatted_address;
            this.place = place;
            list.replaceChildren();
            list.hidden = true;
            for (const listener of listeners) listener();
          });
          list.append(option);
        });
      }
      addListener(name, handler) {
        if (name === 'place_changed') this.listeners.push(handler);
        return { remove() {} };
      }
      getPlace() {
        return this.place;
      }
    }
    google.maps.importLibrary = async (name) => (name === 'places' ? { Autocomplete } : {});
    google.maps.__ib__();
  })();`;
}

/** Answers the maps script request with {@link fakePlacesScript}. */
export async function fakePlaces(page: Page) {
  await page.route('https://maps.googleapis.com/maps/api/js**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: fakePlacesScript(route.request().url()) }),
  );
}
