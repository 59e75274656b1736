import { mkdirSync } from 'node:fs';
import { type Browser, chromium, type Download, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS } from './chromium-args.ts';

export { CHROMIUM_ARGS } from './chromium-args.ts';

export const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;

/**
 * Whether the tests save their screenshots in `test-artifacts/` (`SCREENSHOTS=1 npm test -- --project e2e`).
 * Off by default: a whole run took about 150 of them, each a full render and a PNG for Chromium,
 * and only a person looking at the screens reads them. The screens are driven at both sizes either way.
 */
export const SAVE_SCREENSHOTS = Boolean(process.env.SCREENSHOTS);

/** Saves `test-artifacts/<file>` of a page or a part of it, when screenshots are asked for (SAVE_SCREENSHOTS). */
export async function saveScreenshot(
  target: Page | Locator,
  file: string,
  options: { fullPage?: boolean; animations?: 'disabled' } = {},
): Promise<void> {
  if (!SAVE_SCREENSHOTS) return;
  await target.screenshot({ path: `${ARTIFACTS}${file}`, ...options });
}

export const ADMIN = { email: 'admin@fleet.example', password: 'FleetAdmin#2026' };
export const INSTALLER = { email: 'installer@solarpros.example', password: 'Installer#2026' };
export const OWNER = { email: 'owner@homeowner.example', password: 'Owner#2026' };

/** Chromium on Linux offers Web Bluetooth (with `getDevices`) only behind this switch. */
export const BLUETOOTH_ARGS = [...CHROMIUM_ARGS, '--enable-experimental-web-platform-features'];

/**
 * Makes the pages of `browser` run as in a browser without service workers (`navigator` has no
 * `serviceWorker`, as where a browser offers none): the app then keeps no offline copy. Setting
 * that copy up downloads and stores every file of the build, about 1 to 1.5 s of Chromium's CPU
 * for each new context, and only the files that test the copy itself need it (`offlineCopy`).
 * The screens' tests thereby also show that the app works without one.
 */
function withoutServiceWorkers(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  const forget = () => {
    // The attribute lives on the prototype; removed there, `'serviceWorker' in navigator` is false.
    delete (Navigator.prototype as { serviceWorker?: unknown }).serviceWorker;
  };
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript(forget);
    return context;
  };
  browser.newPage = async (options) => {
    // The page's own context (closed with the page); the script runs from its first navigation.
    const page = await newPage(options);
    await page.context().addInitScript(forget);
    return page;
  };
  return browser;
}

/**
 * A browser for one test file. With the usual flags it is a connection to the Chromium the suite
 * started once (global-setup.ts): starting one per file cost a second or two each. Its `close()`
 * closes the contexts this file opened and disconnects, so the next file starts as clean. Other
 * flags (Web Bluetooth's) get a Chromium of their own. Its pages have no service workers unless
 * `offlineCopy` (withoutServiceWorkers).
 */
export async function launchChromium(
  args = CHROMIUM_ARGS,
  { offlineCopy = false }: { offlineCopy?: boolean } = {},
): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const shared = inject('chromiumEndpoint');
  const browser =
    args === CHROMIUM_ARGS && shared
      ? await chromium.connect(shared)
      : await chromium.launch({ executablePath: inject('chromiumPath'), headless: true, args });
  return offlineCopy ? browser : withoutServiceWorkers(browser);
}

/** Absolute URL of an app path on the server under test. */
export const appUrl = (path: string) => `${inject('baseUrl')}${path}`;

/** Fills the sign-in form as a user would and submits it. */
export async function signIn(page: Page, user: { email: string; password: string }) {
  // Required fields carry a visual asterisk in their label, hence the anchored patterns.
  await page.getByLabel(/^E-mail/).fill(user.email);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Path, search and hash of the page's current URL. */
export const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}${url.hash}`;
};

/**
 * A download's bytes. Read through its stream: `download.path()` has no file to name when the
 * browser is a connection to the run's Chromium (launchChromium).
 */
export async function downloaded(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
