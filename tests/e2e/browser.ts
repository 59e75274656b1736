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
 * A browser for one test file. With the usual flags it is a connection to the Chromium the suite
 * started once (global-setup.ts): starting one per file cost a second or two each. Its `close()`
 * closes the contexts this file opened and disconnects, so the next file starts as clean. Other
 * flags (Web Bluetooth's) get a Chromium of their own.
 */
export function launchChromium(args = CHROMIUM_ARGS): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const shared = inject('chromiumEndpoint');
  if (args === CHROMIUM_ARGS && shared) return chromium.connect(shared);
  return chromium.launch({ executablePath: inject('chromiumPath'), headless: true, args });
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
