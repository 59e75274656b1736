import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createActor } from 'xstate';
import type { AppConfig } from '../../contracts/app-config.ts';
import { appStatusMachine } from '../../machines/app-status/app-status-machine.ts';
import { AppStatusBar } from '../components/app-status/app-status-bar.tsx';
import { pressAgain, releaseEarlyInput } from '../prerender/early-input.ts';
import { holdDeferredUntilInput, nextTask, releaseDeferred } from '../when-idle.ts';
import type { AppRuntime } from './app-runtime.ts';
import { browserConnectivity, workboxServiceWorker } from './app-status-actors.ts';
import { appTree } from './app-tree.tsx';
import { startMachines } from './create-app.ts';
import type { AppRouter } from './router.tsx';
import { showStartupError } from './startup-error.ts';

/** The offline notice and update offer; the service worker only in a build (Vite's dev server has none). */
function startAppStatus() {
  const machine = appStatusMachine.provide({
    actors: {
      connectivity: browserConnectivity,
      ...(import.meta.env.PROD ? { serviceWorker: workboxServiceWorker } : {}),
    },
  });
  return createActor(machine, { input: { online: navigator.onLine } }).start();
}

/**
 * Puts the app into `container`. A page the build prerendered for the route being opened (its
 * `data-prerendered-route`) is hydrated: React takes over the markup a person may already be
 * typing into, and once it has, a form they submitted before the app ran is submitted again, now
 * to the app's own handler. Any other page (the shell of a guarded route, or a prerendered screen
 * the route has left, such as /login for someone still signed in, or one opened at a step the
 * build did not render, such as /login?step=reset) is rendered afresh over what
 * the page showed, and a submission held meanwhile is dropped with the form it belonged to.
 */
function mountApp(
  container: HTMLElement,
  runtime: AppRuntime,
  router: AppRouter,
  chunkLoads: { failed: () => boolean },
) {
  const match = router.state.matches.at(-1);
  // The build renders each page without a search: a route opened at a step of its own (such as
  // `/login?step=reset`) shows other markup than the page holds, so it is rendered afresh.
  const prerendered =
    match !== undefined &&
    container.dataset.prerenderedRoute === match.routeId &&
    Object.keys(match.search).length === 0;
  // A screen whose code could not be downloaded renders the app's error page, not that markup.
  // In a transition, React renders in slices and lets the browser answer input between them,
  // instead of one long task; a press meanwhile makes React finish the part it lands on first.
  if (prerendered && !chunkLoads.failed()) {
    startTransition(() => {
      hydrateRoot(
        container,
        appTree(runtime, router, () => pressAgain(releaseEarlyInput())),
      );
    });
    return;
  }
  const root = createRoot(container);
  startTransition(() => root.render(appTree(runtime, router, releaseEarlyInput)));
}

/**
 * Starts the app in `container` once its configuration is known: the machines, the router, the
 * status bar in `statusContainer`, and the first screen (hydrated when it was prerendered).
 */
export async function startApp(
  container: HTMLElement,
  statusContainer: HTMLElement,
  configuration: Promise<AppConfig>,
  chunkLoads: { failed: () => boolean },
) {
  // A signed-out page the build prerendered needs none of the work left for idle moments (the
  // schemas of later calls, the catalogue): it waits for the person to act on the screen, or to
  // move on. The status bar is not the screen: its "Reload to update" releases nothing, so the
  // reload is not made to wait behind work the page is about to drop.
  if (container.dataset.prerenderedRoute) holdDeferredUntilInput(container);
  try {
    const config = await configuration;
    // Start-up in pieces, each a task of its own (this module's evaluation, the machines, the
    // router, the status bar, the first screen): a person typing into the prerendered form
    // meanwhile is answered between them, not after all of it.
    await nextTask();
    const app = startMachines(config, { storage: window.localStorage });
    await nextTask();
    const { runtime } = app;
    const router = app.buildRouter();
    await nextTask();
    // In a root of its own: the bar is fixed at the foot, and is no part of any prerendered page.
    createRoot(statusContainer).render(
      <StrictMode>
        <AppStatusBar status={startAppStatus()} />
      </StrictMode>,
    );
    // Moving on from the first page lets the hold go, and is the only way besides the person's
    // input: a redirect of the first load included (someone signed in opening /login goes to their
    // home, whose loader needs the catalogue). A screen whose code failed to load keeps it: its
    // "Reload" drops the page.
    const firstPath = router.state.location.pathname;
    router.subscribe('onBeforeNavigate', ({ toLocation }) => {
      if (toLocation.pathname !== firstPath) releaseDeferred();
    });
    // The first screen is resolved (guards, redirects, its code) before React renders, while the
    // page still shows what the build rendered ("Loading…" in the shell for a guarded route):
    // React then renders it once, and the router's own pending view, with its minimum time on
    // screen, is kept for later navigations. Should the load fail, the app renders anyway and the
    // router shows the failure on the screen, loading again.
    await router.load().catch(() => undefined);
    mountApp(container, runtime, router, chunkLoads);
  } catch (error) {
    showStartupError(container, error);
  }
}
