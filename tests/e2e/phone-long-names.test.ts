import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ARTIFACTS, appUrl, launchChromium, signIn } from './browser.ts';
import { PHONE } from './screens-helpers.ts';
import { accessToken, configCall, createInstaller } from './service-calls.ts';

/**
 * Every screen of the app on a 390 px phone, with the longest names the services take (80
 * characters: a device's and a template's limit), as the people who reach each screen see it: the
 * page never scrolls sideways, nothing sticks out past the screen's edge, nothing scrolls sideways
 * inside it, and every long name is shown whole (wrapped), never cut.
 */

/** `base` repeated to exactly 80 characters. */
const eighty = (base: string) => base.repeat(Math.ceil(80 / base.length)).slice(0, 80);
const RUN = Date.now().toString(36).slice(-5);
const NAMES = {
  site: eighty(`Solarpark Überlandwerk Sonnenfeld Nord ${RUN}, Hallendach West, Gebäude 7 und `),
  // No space to break at: the hardest case for a phone.
  device: eighty(`Hauptverteilungswechselrichteranlage${RUN}`),
  user: eighty(`Maximiliane-Friederike von Hohenzollern-Sigmaringen ${RUN} `),
  template: eighty(`Sommerbetrieb mit Netzeinspeisung und Eigenverbrauchsoptimierung ${RUN} `),
};
const INSTALLER = { email: `long.names.${RUN}@solarpros.example`, password: 'Long-names#2026' };
const SERIAL = `HX5K-26-${String(Date.now()).slice(-6)}`;

let browser: Browser;
let siteId = 0;
let installerId = 0;

async function created<T>(answer: Promise<{ status: number; body: unknown }>): Promise<T> {
  const { status, body } = await answer;
  if (status !== 200 && status !== 201)
    throw new Error(`set-up call answered ${status}: ${JSON.stringify(body)}`);
  return body as T;
}

beforeAll(async () => {
  browser = await launchChromium();
  const admin = await accessToken(ADMIN);
  installerId = (await createInstaller({ ...INSTALLER, name: NAMES.user })).id;
  const site = await created<{ id: number }>(
    configCall('POST', '/sites', {
      token: admin,
      body: {
        name: NAMES.site,
        displayAddress: `${eighty('Lindenstraße ')} 117, 80331 München, DE`,
        streetName: eighty('Lindenstraße '),
        streetNumber: '117',
        postalCode: '80331',
        locality: 'München',
        country: 'DE',
        latitude: 48.137,
        longitude: 11.575,
      },
    }),
  );
  siteId = site.id;
  await created(
    configCall('PUT', '/fleet/site-access/change-roles', {
      token: admin,
      body: { siteId, userId: installerId, roles: ['installer', 'configurator'] },
    }),
  );
  await created(
    configCall('POST', `/fleet/sites/${siteId}/installs`, {
      token: admin,
      body: { serial: SERIAL, modelId: 'HX-5000', name: NAMES.device },
    }),
  );
  await created(
    configCall('POST', '/fleet/config-templates', {
      token: await accessToken(INSTALLER),
      body: { name: NAMES.template, modelId: 'HX-5000', settings: { batteryFloatVoltage: 55 } },
    }),
  );
});
afterAll(async () => {
  await browser?.close();
});

/** What on the current screen is wider than the phone: a list of findings, empty when it fits. */
function overflowOnScreen(page: Page, names: string[]): Promise<string[]> {
  return page.evaluate((longNames) => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const describe = (el: Element) => {
      const label = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 60);
      return `<${el.tagName.toLowerCase()}${el.getAttribute('role') ? ` role=${el.getAttribute('role')}` : ''}> “${label}”`;
    };
    if (document.documentElement.scrollWidth > width)
      found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    const hidden = (el: Element) =>
      el.closest('[inert], [aria-hidden="true"], .fm-skip-link') !== null ||
      getComputedStyle(el).visibility === 'hidden';
    for (const el of document.querySelectorAll('body *')) {
      if (hidden(el)) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(el);
      // Something that scrolls sideways inside the screen: a table wider than the phone.
      if (/(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
        found.push(`${describe(el)} scrolls sideways (${el.scrollWidth} px in ${el.clientWidth} px)`);
      // Past the right edge (or the left), unless a scrolling box around it is why.
      let scroller = el.parentElement;
      while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowX))
        scroller = scroller.parentElement;
      if (!scroller && (box.right > width + 1 || box.left < -1))
        found.push(`${describe(el)} reaches ${Math.round(box.left)}–${Math.round(box.right)} px`);
      // A long name shown cut off (an ellipsis, or clipped).
      const own = [...el.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && longNames.some((name) => n.textContent?.includes(name)),
      );
      if (own && el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible')
        found.push(`${describe(el)} cuts its name off`);
    }
    return [...new Set(found)];
  }, names);
}

/** Opens `path` on a phone and waits for the screen to have handled it. */
async function open(page: Page, path: string, ready: (page: Page) => Promise<unknown>) {
  await page.goto(appUrl(path));
  await page.locator('html[data-focused-route]').waitFor({ state: 'attached' });
  await ready(page);
}

const heading = (page: Page) => page.locator('main h1').first().waitFor();
const text = (value: string) => (page: Page) => page.getByText(value).first().waitFor();

async function phoneAs(user: {
  email: string;
  password: string;
}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: PHONE,
    reducedMotion: 'reduce',
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto(appUrl('/login'));
  await signIn(page, user);
  await page.waitForURL('**/landing');
  return { context, page };
}

/** The screens each person reaches, with what shows the long names there. */
function screens(installer: boolean): [string, (page: Page) => Promise<unknown>][] {
  const q = encodeURIComponent(RUN);
  return [
    // Home lists the sites with problems first: the installer's one site is there.
    ['/landing', installer ? text(NAMES.site) : heading],
    ['/alarms', heading],
    [`/sites-list?page=0&q=${q}`, text(NAMES.site)],
    [`/devices-list?page=0&q=${SERIAL}`, text(NAMES.device)],
    [`/users-list?page=0&q=${q}`, text(NAMES.user)],
    [`/site-details/${siteId}`, text(NAMES.device)],
    [
      `/device-details/HX-5000?serial=${SERIAL}`,
      async (page) => {
        await text(NAMES.device)(page);
        // The company's templates of the model, in the Configure panel.
        if (installer) await text(NAMES.template)(page);
      },
    ],
    [`/user-details/${installerId}`, text(NAMES.site)],
    ['/create-site', heading],
    [`/edit-site-address/${siteId}`, heading],
  ];
}

describe('every screen on a 390 px phone, with 80-character names', () => {
  it('fits the phone for an installer with long names, and shows each name whole', async () => {
    const { context, page } = await phoneAs(INSTALLER);
    const found: Record<string, string[]> = {};
    try {
      for (const [path, ready] of screens(true)) {
        await open(page, path, ready);
        const overflow = await overflowOnScreen(page, Object.values(NAMES));
        if (overflow.length > 0) {
          found[path] = overflow;
          await page.screenshot({
            path: `${ARTIFACTS}phone-long-names-${path.split(/[/?]/)[1]}.png`,
            fullPage: true,
          });
        }
      }
    } finally {
      await context.close();
    }
    expect(found).toEqual({});
  });

  it('fits the phone for company staff too, on their own screens and the open tools', async () => {
    const { context, page } = await phoneAs(ADMIN);
    const found: Record<string, string[]> = {};
    const q = encodeURIComponent(RUN);
    const staff: [string, (page: Page) => Promise<unknown>][] = [
      ...screens(false),
      [`/site-manager?page=0&q=${q}`, text(NAMES.site)],
      ['/remote-debugger', heading],
      [`/device-details-old/${SERIAL}`, heading],
      ['/sunspec-config', heading],
    ];
    try {
      for (const [path, ready] of staff) {
        await open(page, path, ready);
        if (path === '/remote-debugger') {
          await page.getByLabel('Search by serial').fill(SERIAL);
          await page
            .getByRole('list', { name: 'Devices found' })
            .getByText(NAMES.device, { exact: false })
            .waitFor();
        }
        const overflow = await overflowOnScreen(page, Object.values(NAMES));
        if (overflow.length > 0) {
          found[path] = overflow;
          await page.screenshot({
            path: `${ARTIFACTS}phone-long-names-staff-${path.split(/[/?]/)[1]}.png`,
            fullPage: true,
          });
        }
      }
      await context.clearCookies();
      await page.evaluate(() => localStorage.clear());
      await open(page, '/login', heading);
      const signedOut = await overflowOnScreen(page, []);
      if (signedOut.length > 0) found['/login'] = signedOut;
    } finally {
      await context.close();
    }
    expect(found).toEqual({});
  });
});
