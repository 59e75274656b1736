import './styles/mantine-first-screen.css';
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import * as v from 'valibot';
import { createActor } from 'xstate';
import { appConfigSchema } from '../contracts/app-config.ts';
import { appStatusMachine } from '../machines/app-status/app-status-machine.ts';
import type { AppRuntime } from './app/app-runtime.ts';
import { browserConnectivity, workboxServiceWorker } from './app/app-status-actors.ts';
import { appTree } from './app/app-tree.tsx';
import { watchChunkLoadErrors } from './app/chunk-load-errors.ts';
import { createApp } from './app/create-app.ts';
import type { AppRouter } from './app/router.tsx';
import { AppStatusBar } from './components/app-status/app-status-bar.tsx';
import { releaseEarlyInput, resubmit } from './prerender/early-input.ts';

// Zod (loaded later, with the screens) compiles its object checks with `new Function` where it may;
// the Content-Security-Policy forbids eval, so it must not even try (a refused attempt is still
// reported as a violation). `z.config({ jitless: true })` writes to this shared object on
// `globalThis`, which every copy of zod reads; writing it here keeps zod itself out of the
// sign-in screen's scripts.
const zodConfig = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodConfig.__zod_globalConfig = Object.assign(zodConfig.__zod_globalConfig ?? {}, { jitless: true });

/** Failed downloads of the app's chunks, watched from the start (see chunk-load-errors.ts). */
const chunkLoads = watchChunkLoadErrors(window);

const CONFIG_PATH = '/app-config.json';
/** The last configuration this browser was given, for a start with no connection. */
const CONFIG_CACHE = 'fleet-app-config';

/** The configuration from the server, kept for later; with no connection, the kept copy. */
async function fetchConfig(): Promise<Response> {
  const canKeep = 'caches' in window;
  try {
    // A plain GET, exactly as index.html preloads it, so the browser uses the preloaded answer.
    const response = await fetch(CONFIG_PATH);
    if (response.ok && canKeep) {
      const copy = response.clone();
      caches
        .open(CONFIG_CACHE)
        .then((cache) => cache.put(CONFIG_PATH, copy))
        .catch(() => undefined);
    }
    return response;
  } catch (error) {
    const kept = canKeep ? await caches.match(CONFIG_PATH, { cacheName: CONFIG_CACHE }) : undefined;
    if (kept) return kept;
    throw error;
  }
}

// Base URLs and keys come from the server that hosts the app, so one build runs against any
// deployment of the API. Nothing renders until the configuration is known.
async function loadConfig() {
  const response = await fetchConfig();
  if (!response.ok) throw new Error(`${CONFIG_PATH} answered HTTP ${response.status}`);
  const parsed = v.safeParse(appConfigSchema, await response.json());
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new Error(`${CONFIG_PATH} is invalid: ${v.getDotPath(issue) || 'value'}: ${issue.message}`);
  }
  return parsed.output;
}

function showStartupError(container: HTMLElement, error: unknown) {
  const message = navigator.onLine
    ? error instanceof Error
      ? error.message
      : String(error)
    : 'You are offline, and Fleet Manager has not been opened on this device with a connection yet. Connect once; after that it opens without a signal.';
  console.error('Fleet Manager could not start:', error);
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.style.cssText = 'font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:1rem';
  const title = document.createElement('h1');
  title.textContent = 'Fleet Manager could not start';
  const detail = document.createElement('p');
  detail.textContent = message;
  box.append(title, detail);
  container.replaceChildren(box);
}

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
 * the route has left, such as /login for someone still signed in) is rendered afresh over what
 * the page showed, and a submission held meanwhile is dropped with the form it belonged to.
 */
function mountApp(container: HTMLElement, runtime: AppRuntime, router: AppRouter) {
  const routeId = router.state.matches.at(-1)?.routeId;
  const prerendered = routeId !== undefined && container.dataset.prerenderedRoute === routeId;
  // A screen whose code could not be downloaded renders the app's error page, not that markup.
  if (prerendered && !chunkLoads.failed()) {
    hydrateRoot(
      container,
      appTree(runtime, router, () => resubmit(releaseEarlyInput())),
    );
    return;
  }
  createRoot(container).render(appTree(runtime, router, releaseEarlyInput));
}

async function start(container: HTMLElement, statusContainer: HTMLElement) {
  try {
    const config = await loadConfig();
    const { runtime, router } = createApp(config, { storage: window.localStorage });
    // In a root of its own: the bar is fixed at the foot, and is no part of any prerendered page.
    createRoot(statusContainer).render(
      <StrictMode>
        <AppStatusBar status={startAppStatus()} />
      </StrictMode>,
    );
    // The first screen is resolved (guards, redirects, its code) before React renders, while the
    // page still shows what the build rendered ("Loading…" in the shell for a guarded route):
    // React then renders it once, and the router's own pending view, with its minimum time on
    // screen, is kept for later navigations. Should the load fail, the app renders anyway and the
    // router shows the failure on the screen, loading again.
    await router.load().catch(() => undefined);
    mountApp(container, runtime, router);
  } catch (error) {
    showStartupError(container, error);
  }
}

const container = document.getElementById('root');
const statusContainer = document.getElementById('app-status');
if (container && statusContainer) void start(container, statusContainer);
