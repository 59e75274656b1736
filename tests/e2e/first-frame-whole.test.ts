import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUrl, launchChromium } from './browser.ts';
import { PHONE } from './screens-helpers.ts';

/** What the page holds when the browser draws its first frame. */
interface FirstFrame {
  /** Whether the parser has read the whole prerendered markup (the element after it is there). */
  markupComplete: boolean;
  text: string;
}

/** How long the second half of a page waits: far longer than any frame. */
const PAUSE_MS = 800;

/**
 * A server in front of the app's that sends each HTML page in two parts, as a slow connection
 * does: the first ends half-way through the prerendered markup, the rest follows after a pause.
 * Everything else passes through unchanged.
 */
async function startSlowPages(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const upstream = await fetch(appUrl(request.url ?? '/'), {
      headers: { accept: request.headers.accept ?? '*/*' },
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    const headers = Object.fromEntries(
      [...upstream.headers].filter(([name]) => !['content-encoding', 'content-length'].includes(name)),
    );
    response.writeHead(upstream.status, headers);
    if (!upstream.headers.get('content-type')?.startsWith('text/html')) {
      response.end(body);
      return;
    }
    const html = body.toString('utf8');
    const start = html.indexOf('<div id="root"');
    const end = html.indexOf('<div id="app-status"');
    const cut = html.lastIndexOf('<', start + Math.floor((end - start) / 2));
    response.write(html.slice(0, cut));
    await sleep(PAUSE_MS);
    response.end(html.slice(cut));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

let browser: Browser;
let slowPages: Awaited<ReturnType<typeof startSlowPages>>;

beforeAll(async () => {
  browser = await launchChromium();
  slowPages = await startSlowPages();
});
afterAll(async () => {
  await slowPages?.close();
  await browser?.close();
});

describe('a prerendered page on a slow connection', () => {
  // Each page is drawn once its markup is all there, never as a top half first: a half page that
  // grows later moves what a person is about to press, and makes the later paint its largest.
  it.each(['/login', '/sunspec-config', '/device-details-old/HX5K-24-000123', '/sites-list'])(
    'draws %s whole in its first frame',
    async (path) => {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await page.addInitScript(() => {
        requestAnimationFrame(() => {
          const root = document.getElementById('root');
          const firstFrame: FirstFrame = {
            markupComplete: document.getElementById('app-status') !== null,
            text: root?.textContent ?? '',
          };
          Object.assign(window, { firstFrame });
        });
      });
      await page.goto(`${slowPages.origin}${path}`);
      const seen = await page.waitForFunction(
        () => (window as unknown as { firstFrame?: FirstFrame }).firstFrame,
      );
      const { markupComplete, text } = (await seen.jsonValue()) as FirstFrame;
      expect(markupComplete).toBe(true);
      expect(text.length).toBeGreaterThan(0);
      await context.close();
    },
  );
});
