import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../server/auth/signing-keys.ts';
import { createServer, type FleetServer } from '../../server/create-server.ts';
import { parseEnv } from '../../server/env.ts';
import { appUrl, INSTALLER, launchChromium, saveScreenshot, signIn } from './browser.ts';

const DIST = new URL('../../dist/', import.meta.url).pathname;
const OFFLINE_NOTICE =
  'You are offline. Signing in and live data need a connection; the bundled device catalogue still works.';

let browser: Browser;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  // These tests are about the offline copy: its pages keep their service worker.
  browser = await launchChromium(undefined, { offlineCopy: true });
});
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});
afterAll(async () => {
  await browser?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  contexts.push(context);
  return context.newPage();
}

/** Every console error, uncaught error and Content-Security-Policy violation a page reports. */
function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/**
 * A server of its own on a copy of the build, so a test can deploy a new version (change the
 * copy) or take the server away (no signal) without touching the suite's shared server.
 */
async function privateServer() {
  const dist = mkdtempSync(join(tmpdir(), 'fleet-delivery-dist-'));
  cpSync(DIST, dist, { recursive: true });
  const fleet: FleetServer = await createServer({
    env: parseEnv({ DATA_DIR: dist }),
    database: { pgliteDir: 'memory://' },
    keys: { config: (await generateSigningKey()).key, monitoring: (await generateSigningKey()).key },
    seed: false,
    distDir: dist,
  });
  const listener = serve({ fetch: fleet.app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
  await new Promise((resolve) => listener.once('listening', resolve));
  const address = listener.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
    await fleet.close();
  };
  return {
    url: (path: string) => `${origin}${path}`,
    dist,
    stop,
    /** Replaces a built file as a deployment would: the file and its compressed copies. */
    deploy: (name: string, body: string) => {
      writeFileSync(join(dist, name), body);
      writeFileSync(join(dist, `${name}.br`), brotliCompressSync(body));
      writeFileSync(join(dist, `${name}.gz`), gzipSync(body));
    },
    dispose: async () => {
      await stop();
      rmSync(dist, { recursive: true, force: true });
    },
  };
}

/** Waits until the service worker has precached the app and is active for this page's scope. */
async function offlineCopyReady(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

describe('delivery in Chromium', () => {
  it('runs the sign-in screen and a signed-in screen under the Content-Security-Policy without a single error', async () => {
    const page = await newPage();
    const problems = collectProblems(page);
    const response = await page.goto(appUrl('/login'));
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(policy).toContain("frame-ancestors 'none'");
    await signIn(page, INSTALLER);
    await page.waitForURL('**/landing');
    await page.getByRole('navigation', { name: 'Fleet Manager' }).waitFor();
    await offlineCopyReady(page);
    expect(problems).toEqual([]);
  });

  it('sends the page and its scripts compressed, with hashed scripts cached for a year', async () => {
    const page = await newPage();
    const scripts: { url: string; encoding?: string; cache?: string }[] = [];
    page.on('response', (answer) => {
      if (answer.request().resourceType() === 'script')
        scripts.push({
          url: answer.url(),
          encoding: answer.headers()['content-encoding'],
          cache: answer.headers()['cache-control'],
        });
    });
    const response = await page.goto(appUrl('/login'));
    expect(response?.headers()['content-encoding']).toBe('br');
    expect(response?.headers()['cache-control']).toBe('no-cache');
    await page.getByLabel(/^E-mail/).waitFor();
    const hashed = scripts.filter((s) => s.url.includes('/assets/'));
    expect(hashed.length).toBeGreaterThan(0);
    for (const script of hashed) {
      // The build writes a brotli copy of every file it makes smaller (vite.config.ts); a chunk of
      // a few dozen bytes, which brotli cannot shrink, is sent as it is.
      const file = join(DIST, new URL(script.url).pathname);
      if (existsSync(`${file}.br`)) expect(script.encoding, script.url).toBe('br');
      else
        expect(brotliCompressSync(readFileSync(file)).length, script.url).toBeGreaterThanOrEqual(
          statSync(file).size,
        );
      expect(script.cache, script.url).toBe('public, max-age=31536000, immutable');
    }
  });
});

describe('offline start', () => {
  it('opens a visited app with no signal: an offline notice, and the screens of the bundled catalogue', async () => {
    const server = await privateServer();
    try {
      const page = await newPage();
      const problems = collectProblems(page);
      await page.goto(server.url('/login'));
      await page.getByLabel(/^E-mail/).waitFor();
      await offlineCopyReady(page);
      // No signal at all: the browser is offline and the server is gone.
      await page.context().setOffline(true);
      await server.stop();

      await page.goto(server.url('/device-details-old/HX-5000'));
      await page.getByRole('heading', { name: 'Device details' }).waitFor();
      await page.getByText(OFFLINE_NOTICE).waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'You are offline.' }).count()).toBe(1);
      await saveScreenshot(page, 'offline-device-details-old.png');

      await page.goto(server.url('/sunspec-config'));
      await page.getByRole('heading', { name: 'SunSpec configuration' }).waitFor();
      await page.getByText(OFFLINE_NOTICE).waitFor();

      // The bundled catalogue is there too, from the offline copy.
      const list = await page.evaluate(
        async () => (await (await fetch('/devices-list.json')).json()) as object,
      );
      expect(Object.keys(list)).toContain('devicesList');

      // The connection comes back: the notice goes.
      await page.context().setOffline(false);
      await page.getByText(OFFLINE_NOTICE).waitFor({ state: 'detached' });
      // Offline, only the failed requests are logged, and the catalogue's failure the
      // specification asks to log ('ERROR getting Devices List.'); nothing else.
      const expected = /Failed to load resource|ERR_INTERNET_DISCONNECTED|ERROR getting Devices List\./;
      expect(problems.filter((p) => !expected.test(p))).toEqual([]);
    } finally {
      await server.dispose();
    }
  });
});

describe('a second visit', () => {
  it('is routed by the browser without waking the worker: the page raced, the hashed files from the copy', async () => {
    const server = await privateServer();
    try {
      const page = await newPage();
      await page.goto(server.url('/login'));
      await page.getByLabel(/^E-mail/).waitFor();
      await offlineCopyReady(page);
      // Stopped, as Chromium stops a worker left idle for 30 s: the visit of a later day.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await page.goto(server.url('/login'));
      await page.getByLabel(/^E-mail/).waitFor();
      // How each request was routed, as Resource Timing reports it.
      const routed = await page.evaluate(() => {
        type Routed = PerformanceResourceTiming & { workerMatchedSourceType?: string };
        const how = (entry: Routed) => entry.workerMatchedSourceType ?? 'the worker';
        const [navigation] = performance.getEntriesByType('navigation') as Routed[];
        const files = (performance.getEntriesByType('resource') as Routed[]).filter((entry) =>
          new URL(entry.name).pathname.startsWith('/assets/'),
        );
        return { page: navigation ? how(navigation) : 'none', files: [...new Set(files.map(how))] };
      });
      expect(routed).toEqual({ page: 'race-network-and-fetch-handler', files: ['cache'] });
    } finally {
      await server.dispose();
    }
  });
});

describe('a new version', () => {
  it('is announced with "Reload to update" and taken only when the person chooses it', async () => {
    const server = await privateServer();
    try {
      const page = await newPage();
      await page.goto(server.url('/sunspec-config'));
      await page.getByRole('heading', { name: 'SunSpec configuration' }).waitFor();
      await offlineCopyReady(page);
      await page.evaluate(() => {
        (window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true;
      });

      // Deploy a new version, and let the browser look for one (as it does on its own schedule).
      server.deploy('sw.js', `${readFileSync(join(server.dist, 'sw.js'), 'utf8')}\n// the next version\n`);
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())?.update();
      });
      await page.getByText('A new version of Fleet Manager is ready.').waitFor();
      const reload = page.getByRole('button', { name: 'Reload to update' });
      await reload.waitFor();
      await saveScreenshot(page, 'update-offer.png');
      // Announced, not swapped: the page is the same one, and the new version still waits.
      expect(
        await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage),
      ).toBe(true);
      expect(
        await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
      ).toBe(true);

      await Promise.all([page.waitForEvent('load'), reload.click()]);
      await page.getByRole('heading', { name: 'SunSpec configuration' }).waitFor();
      expect(
        await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage),
      ).toBeUndefined();
      expect(
        await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
      ).toBe(false);
      expect(await page.getByText('A new version of Fleet Manager is ready.').count()).toBe(0);
    } finally {
      await server.dispose();
    }
  });
});
