// Loads the sign-in screen in Chromium as a phone at the roadside would: slow 4G and a 4× slower
// CPU, through the Chrome DevTools Protocol. Figures only; nothing here asserts.
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/e2e/browser.ts';
import { findChromium } from '../tests/e2e/find-chromium.ts';

/**
 * The tests' flags, and Chromium 156's omnibox popups off: beside about half of the windows it
 * opens, headless too, it loads them (some 400 WebUI modules, in a renderer of their own), seconds
 * of CPU that land on a page load being measured. Only here, not in the tests: Chromium keeps the
 * last --disable-features it is given, so this one replaces Playwright's own list, which the tests
 * rely on (request interception, paint holding) and a page measured on localhost does not.
 */
export const MEASURING_ARGS = [...CHROMIUM_ARGS, '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup'];

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
  /**
   * From navigation start to a working "Sign in": React owns the form (its props are on the
   * element), so a press runs the app's own handler.
   */
  signInWorkingMs: number;
  /** Largest Contentful Paint reported by the page up to that moment (and a little after). */
  lcpMs: number;
  /** Bytes over the wire (headers and bodies, as Chromium counts them) until the form worked. */
  transferredKb: number;
}

interface Marks {
  emailVisible: number;
  signInWorking: number;
  lcp: number;
}

/**
 * Runs in the page before anything else: notes when the E-mail field first shows (the first
 * animation frame that finds it laid out: that frame paints it), when React has
 * taken the sign-in form (rendered it, or hydrated the prerendered one: React keeps its props on
 * the element under a `__reactProps$…` key), and the LCP.
 */
const PROBE = `(() => {
  const marks = (window.__signInMarks = { emailVisible: -1, signInWorking: -1, lcp: -1 });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) marks.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const reactOwns = (element) => Object.keys(element).some((key) => key.startsWith('__reactProps$'));
  const check = () => {
    const field = document.querySelector('input[type="email"]');
    // Laid out in this frame's callbacks, it is painted with this frame, which follows them.
    if (marks.emailVisible < 0 && field && field.getBoundingClientRect().height > 0) {
      marks.emailVisible = performance.now();
    }
    const form = field && field.form;
    if (marks.signInWorking < 0 && form && reactOwns(form)) marks.signInWorking = performance.now();
    if (marks.emailVisible < 0 || marks.signInWorking < 0) requestAnimationFrame(check);
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

const readMarks = (page: Page) =>
  page.evaluate(() => (window as unknown as { __signInMarks: Marks }).__signInMarks);

async function measure(context: BrowserContext, url: string): Promise<LoadFigures> {
  const page = await context.newPage();
  await page.addInitScript(PROBE);
  const network = await throttle(context, page);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    () => {
      const marks = (window as unknown as { __signInMarks: Marks }).__signInMarks;
      return marks.emailVisible >= 0 && marks.signInWorking >= 0;
    },
    undefined,
    { timeout: 60_000, polling: 50 },
  );
  const transferred = network.bytes();
  // LCP entries arrive with the paint; a short settle lets the last one in.
  await page.waitForTimeout(300);
  const marks = await readMarks(page);
  await network.detach();
  await page.close();
  return {
    emailVisibleMs: Math.round(marks.emailVisible),
    signInWorkingMs: Math.round(marks.signInWorking),
    lcpMs: Math.round(marks.lcp),
    transferredKb: Math.round(transferred / 102.4) / 10,
  };
}

/**
 * Waits until a service worker (if the app has one) has finished installing its offline copy, or
 * 30 s: a worker whose install fails (a build that lists a file it lacks) is never ready, and the
 * warm load then simply runs without it.
 */
async function settleOfflineCopy(context: BrowserContext, url: string) {
  const page = await context.newPage();
  await page.goto(url);
  await page.evaluate(async () => {
    if (!('serviceWorker' in navigator)) return;
    const registration = await navigator.serviceWorker.getRegistration();
    const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, 30_000));
    if (registration) await Promise.race([navigator.serviceWorker.ready, gaveUp]);
  });
  await page.close();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function summary(all: LoadFigures[]): LoadFigures {
  return {
    emailVisibleMs: median(all.map((f) => f.emailVisibleMs)),
    signInWorkingMs: median(all.map((f) => f.signInWorkingMs)),
    lcpMs: median(all.map((f) => f.lcpMs)),
    transferredKb: median(all.map((f) => f.transferredKb)),
  };
}

/**
 * Stops the context's service workers, as Chromium does to a worker left idle for 30 s: the next
 * visit starts it again, as a visit the next day does.
 */
async function stopServiceWorkers(context: BrowserContext) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
  await page.close();
}

/**
 * The visits of one person: the first (a new browser profile: empty caches), then, once the
 * offline copy is installed, a second while the service worker still runs (straight after) and a
 * second after it has stopped (a later day), both served by the worker.
 */
async function visits(browser: Browser, origin: string): Promise<SignInLoad> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    serviceWorkers: process.env.BENCH_NO_SW ? 'block' : 'allow',
  });
  try {
    const first = await measure(context, `${origin}/login`);
    await settleOfflineCopy(context, `${origin}/login`);
    const warm = await measure(context, `${origin}/login`);
    await stopServiceWorkers(context);
    const second = await measure(context, `${origin}/login`);
    return { first, warm, second };
  } finally {
    await context.close();
  }
}

export interface SignInLoad {
  /** A first visit: nothing cached. */
  first: LoadFigures;
  /** A second visit straight after the first: the service worker is still running. */
  warm: LoadFigures;
  /** A second visit after the service worker has stopped (idle 30 s, or a later day). */
  second: LoadFigures;
}

const VISITS = ['first', 'warm', 'second'] as const;

/**
 * The visits of `${origin}/login` for each origin, `runs` times each; the median of each figure.
 * With several origins (a baseline build beside the current one) the loads take turns, so a busy
 * moment of a shared machine weighs on every build alike.
 */
export async function measureSignInLoads(origins: string[], runs = 5): Promise<SignInLoad[]> {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: MEASURING_ARGS,
  });
  const loads = origins.map(() => ({
    first: [] as LoadFigures[],
    warm: [] as LoadFigures[],
    second: [] as LoadFigures[],
  }));
  try {
    for (let run = 0; run < runs; run += 1) {
      for (const [index, origin] of origins.entries()) {
        const load = await visits(browser, origin);
        for (const visit of VISITS) loads[index]?.[visit].push(load[visit]);
      }
    }
  } finally {
    await browser.close();
  }
  return loads.map((load) => ({
    first: summary(load.first),
    warm: summary(load.warm),
    second: summary(load.second),
  }));
}
