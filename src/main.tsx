import './styles/mantine-first-screen.css';
import './styles/app.css';
import { loadConfig } from './app/load-app-config.ts';
import { showStartupError } from './app/startup-error.ts';
import { watchChunkLoadErrors } from './app/watch-chunk-load-errors.ts';
import { applyPreloadedStylesheets } from './prerender/preloaded-stylesheets.ts';
import { nextTask } from './when-idle.ts';

// Zod (loaded later, with the screens) compiles its object checks with `new Function` where it may;
// the Content-Security-Policy forbids eval, so it must not even try (a refused attempt is still
// reported as a violation). `z.config({ jitless: true })` writes to this shared object on
// `globalThis`, which every copy of zod reads; writing it here keeps zod itself out of the
// sign-in screen's scripts.
const zodConfig = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodConfig.__zod_globalConfig = Object.assign(zodConfig.__zod_globalConfig ?? {}, { jitless: true });

applyPreloadedStylesheets(document);

/** Failed downloads of the app's chunks, watched from the start (see watch-chunk-load-errors.ts). */
const chunkLoads = watchChunkLoadErrors(window);

/**
 * Resolves after the page's next frame has been painted: what the build prerendered shows before
 * the app's scripts run (with the page and its scripts at hand, as on a second visit, they would
 * otherwise run first). A page opened in the background paints no frames: it goes on anyway.
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}

const container = document.getElementById('root');
const statusContainer = document.getElementById('app-status');
if (container && statusContainer) {
  // Asked for at once; the page preloads it too.
  const configuration = loadConfig();
  configuration.catch(() => undefined);
  // React DOM, then the rest of the app: two module evaluations, each a task of its own, rather
  // than one long one while a person may be typing into the prerendered form.
  afterNextPaint()
    .then(() => import('react-dom/client'))
    .then(nextTask)
    .then(() => import('./app/start-app.tsx'))
    .then(({ startApp }) => startApp(container, statusContainer, configuration, chunkLoads))
    .catch((error: unknown) => showStartupError(container, error));
}
