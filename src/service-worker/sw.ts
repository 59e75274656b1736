// The service worker (built into /sw.js by vite-plugin-pwa, which lists the build's files where
// `__WB_MANIFEST` stands). It keeps a copy of the whole app so that it opens with no signal, and
// answers each page as the server does: the prerendered page of the path, else the shell.
import { cacheNames, clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  type PrecacheEntry,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { PRERENDERED_PAGES, pageFileFor, SHELL_PAGE } from '../../contracts/prerendered-pages.ts';

// The project's types describe a window; these are the worker's parts used here. `self` is written
// out at each use: the build finds `self.__WB_MANIFEST` by its text.
declare global {
  interface Window {
    __WB_MANIFEST: (PrecacheEntry | string)[];
  }
}
const skipWaiting = () => (self as unknown as { skipWaiting(): Promise<void> }).skipWaiting();

/** A rule of the browser's own routing (the Service Worker Static Routing API, Chromium 123+). */
interface RouterRule {
  condition: { urlPattern?: string; requestMode?: RequestMode };
  source: 'race-network-and-fetch-handler' | { cacheName: string };
}
type InstallEvent = Event & { addRoutes?: (rules: RouterRule[]) => Promise<void> };

// A worker that has stopped (Chromium stops one idle for 30 s) is started again by the next
// visit, and every request of the page used to wait for it: on a slow phone a second visit showed
// the sign-in form later than the first. Where the browser routes by itself, it does so without
// starting this worker: a page comes from the network or from this worker's offline copy,
// whichever answers first (with no signal, the copy), and the hashed files, which never change,
// straight from the offline copy (a file not in it, from the network). Browsers without these
// rules ask this worker, as before. Registered before Workbox's own install handler.
self.addEventListener('install', (event) => {
  void (event as InstallEvent)
    .addRoutes?.([
      { condition: { urlPattern: '/assets/*' }, source: { cacheName: cacheNames.precache } },
      { condition: { requestMode: 'navigate' }, source: 'race-network-and-fetch-handler' },
    ])
    .catch(() => {
      // A browser that knows the call but not a rule: the worker answers everything.
    });
});

// The app's files: every chunk (so any screen opens offline), the pages, the codec, and the
// bundled devices lists and device forms; not the API reference's viewer (vite.config.ts), which
// comes from the network when `/api` opens. /app-config.json is the deployment's, not the
// build's: src/main.tsx keeps the last copy itself.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const pages = new Map(
  [SHELL_PAGE, ...PRERENDERED_PAGES.map((page) => page.file)].map((file) => [
    file,
    createHandlerBoundToURL(file),
  ]),
);
registerRoute(
  new NavigationRoute(
    (options) => {
      const page = pages.get(pageFileFor(options.url.pathname)) ?? pages.get(SHELL_PAGE);
      if (!page) throw new Error(`${SHELL_PAGE} is not in the offline copy`);
      return page(options);
    },
    // The services' own answers are never the app's page.
    { denylist: [/^\/(config|monitoring)(\/|$)/, /^\/app-config\.json$/] },
  ),
);

// A new version waits until the person chooses "Reload to update" (machines/app-status/), which
// sends this message through workbox-window.
self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | null;
  if (data?.type === 'SKIP_WAITING') void skipWaiting();
});
// The first version takes the open page at once (it is the version that page runs); a later
// one waits for the person.
clientsClaim();
