// Runs at build time only, in Node, from the `prerender` step of vite.config.ts: it is never part
// of the app the browser loads.
import { createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { prerender } from 'react-dom/static';
import type { AppConfig } from '../../contracts/app-config.ts';
import { PRERENDERED_PAGES, SHELL_PAGE } from '../../contracts/prerendered-pages.ts';
import type { AppRuntime } from '../app/app-runtime.ts';
import { appTree } from '../app/app-tree.tsx';
import { createApp } from '../app/create-app.ts';
import { RoutePending } from '../components/route-pending.tsx';
import { ShellLayout } from '../components/shell/shell-layout.tsx';
import { CatalogueStatus } from '../features/catalogue/catalogue-status.tsx';
import { BuildStorage } from './build-storage.ts';

/** A page as the build renders it: what goes inside `#root`. */
export interface RenderedPage {
  file: string;
  /** The markup inside `#root`. */
  html: string;
  /**
   * The route the markup shows (the deepest match's id), which the app hydrates when it opens
   * that same route; null for the shell, which the app always renders afresh.
   */
  routeId: string | null;
}

/**
 * What the app would read from `/app-config.json`. None of it shows on a signed-out screen or in
 * the shell's frame, and nothing is called: the build's fetch never answers.
 */
const BUILD_CONFIG: AppConfig = {
  configUrl: '/config',
  monitoringUrl: '/monitoring',
  devicesListUrl: '/config/devices-list',
  apiKey: 'build',
  linkKey: 'build:build',
  companyDomain: 'build.invalid',
  mapsApiKey: null,
};
const ORIGIN = 'http://localhost';

/** The app as a first visit starts it: nothing stored, signed out, no answer from any service. */
function startApp(path: string) {
  return createApp(BUILD_CONFIG, {
    storage: new BuildStorage(),
    fetch: () => new Promise<Response>(() => {}),
    history: createMemoryHistory({ initialEntries: [path] }),
    tabChannel: {},
    origin: ORIGIN,
  });
}

function stop(runtime: AppRuntime) {
  runtime.auth.stop();
  runtime.catalogue.stop();
  runtime.passwordReset.stop();
}

async function toHtml(element: React.ReactElement): Promise<string> {
  // A view that throws at build time would leave its part to the browser and lose the point of
  // prerendering: the build fails instead.
  const errors: unknown[] = [];
  const { prelude } = await prerender(element, { onError: (error) => void errors.push(error) });
  if (errors.length > 0) throw new Error('Prerendering: a view threw', { cause: errors[0] });
  return new Response(prelude).text();
}

/** A signed-out screen, rendered exactly as the app renders it in the browser. */
async function renderScreen(file: string, path: string): Promise<RenderedPage> {
  const { runtime, router } = startApp(path);
  try {
    await router.load();
    const leaf = router.state.matches.at(-1);
    if (!leaf || router.state.location.pathname !== path)
      throw new Error(`Prerendering ${path} ended at ${router.state.location.pathname}`);
    if (leaf.status !== 'success') throw new Error(`Prerendering ${path}: the route ${leaf.status}`);
    return { file, html: await toHtml(appTree(runtime, router)), routeId: leaf.routeId };
  } finally {
    stop(runtime);
  }
}

/**
 * The signed-in frame (menu, its title and items, the catalogue's line) around "Loading…", for
 * any guarded path opened cold. It is the real shell over a router of its own: a visitor's
 * session is not known at build time, so the app renders the real screen over it once known.
 */
async function renderShell(): Promise<RenderedPage> {
  const { runtime } = startApp('/');
  const root = createRootRoute({ component: () => <ShellLayout catalogueStatus={<CatalogueStatus />} /> });
  const waiting = createRoute({ getParentRoute: () => root, path: '/', component: RoutePending });
  const router = createRouter({
    routeTree: root.addChildren([waiting]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
    origin: ORIGIN,
  });
  try {
    await router.load();
    return { file: SHELL_PAGE, html: await toHtml(appTree(runtime, router)), routeId: null };
  } finally {
    stop(runtime);
  }
}

/** Every page of `PRERENDERED_PAGES`, and the shell. */
export async function renderPages(): Promise<RenderedPage[]> {
  // The router, built for the browser here, hands itself to its devtools on `self`, which Node lacks.
  Object.assign(globalThis, { self: globalThis.self ?? globalThis });
  const pages: RenderedPage[] = [];
  for (const page of PRERENDERED_PAGES) pages.push(await renderScreen(page.file, page.renderPath));
  pages.push(await renderShell());
  return pages;
}
