// Loads the sign-in screen in Chromium as a phone at the roadside would: slow 4G and a 4× slower
// CPU, through the Chrome DevTools Protocol. Figures only; nothing here asserts.
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/e2e/browser.ts';
import { findChromium } from '../tests/e2e/find-chromium.ts';

/** Chrome DevTools' "Slow 4G" shape as the issue states it: 150 ms latency, 1.6 Mbit/s down. */
export const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
export const CPU_SLOWDOWN = 4;

export interface LoadFigures {
  /** From navigation start to the E-mail field being visible. */
  emailVisibleMs: number;
  /** Largest Contentful Paint reported by the page up to that moment (and a little after). */
  lcpMs: number;
  /** Bytes over the wire (headers and bodies, as Chromium counts them) until the field showed. */
  transferredKb: number;
}

/** Runs in the page before anything else: notes when the E-mail field first shows, and the LCP. */
const PROBE = `(() => {
  const marks = (window.__signInMarks = { emailVisible: -1, lcp: -1 });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) marks.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const check = () => {
    if (marks.emailVisible >= 0) return;
    const field = document.querySelector('input[type="email"]');
    if (field && field.getBoundingClientRect().height > 0) {
      // The frame that shows it: the next animation frame after it is laid out.
      requestAnimationFrame(() => { if (marks.emailVisible < 0) marks.emailVisible = performance.now(); });
    } else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

async function throttle(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
  });
  return { bytes: () => bytes, detach: () => cdp.detach() };
}

async function measure(context: BrowserContext, url: string): Promise<LoadFigures> {
  const page = await context.newPage();
  await page.addInitScript(PROBE);
  const network = await throttle(context, page);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    () => (window as unknown as { __signInMarks: { emailVisible: number } }).__signInMarks.emailVisible >= 0,
    undefined,
    {
      timeout: 60_000,
      polling: 50,
    },
  );
  const transferred = network.bytes();
  // LCP entries arrive with the paint; a short settle lets the last one in.
  await page.waitForTimeout(300);
  const marks = await page.evaluate(
    () => (window as unknown as { __signInMarks: { emailVisible: number; lcp: number } }).__signInMarks,
  );
  await network.detach();
  await page.close();
  return {
    emailVisibleMs: Math.round(marks.emailVisible),
    lcpMs: Math.round(marks.lcp),
    transferredKb: Math.round(transferred / 102.4) / 10,
  };
}

/** Waits until a service worker (if the app has one) has finished installing its offline copy. */
async function settleOfflineCopy(context: BrowserContext, url: string) {
  const page = await context.newPage();
  await page.goto(url);
  await page.evaluate(async () => {
    if (!('serviceWorker' in navigator)) return;
    const registration = await navigator.serviceWorker.getRegistration();
    if (registration) await navigator.serviceWorker.ready;
  });
  await page.close();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Cold (a new browser profile: empty caches) and warm (the same profile opening the page again,
 * after the first visit's offline copy has settled) loads of `${origin}/login`, `runs` times each;
 * the median of each figure.
 */
export async function measureSignInLoad(
  origin: string,
  runs = 5,
): Promise<{ cold: LoadFigures; warm: LoadFigures }> {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const cold: LoadFigures[] = [];
  const warm: LoadFigures[] = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        serviceWorkers: process.env.BENCH_NO_SW ? 'block' : 'allow',
      });
      cold.push(await measure(context, `${origin}/login`));
      await settleOfflineCopy(context, `${origin}/login`);
      warm.push(await measure(context, `${origin}/login`));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const summary = (all: LoadFigures[]): LoadFigures => ({
    emailVisibleMs: median(all.map((f) => f.emailVisibleMs)),
    lcpMs: median(all.map((f) => f.lcpMs)),
    transferredKb: median(all.map((f) => f.transferredKb)),
  });
  return { cold: summary(cold), warm: summary(warm) };
}
