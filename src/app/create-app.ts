import type { RouterHistory } from '@tanstack/react-router';
import type { AppConfig } from '../../contracts/app-config.ts';
import type { TabChannelOptions } from '../features/auth/tab-channel.ts';
import { type AppRuntime, createAppRuntime, type MachineClock } from './app-runtime.ts';
import { rememberResumePath, withTabResumePath } from './resume-path.ts';
import { type AppRouter, createAppRouter } from './router.tsx';

export interface AppDeps {
  storage: Storage;
  fetch?: typeof fetch;
  history?: RouterHistory;
  /** Timers of the machines that wait (the catalogue cooldown); tests pass a simulated clock. */
  clock?: MachineClock;
  /** How tabs talk; a `BroadcastChannel` by default. The build's rendering passes none. */
  tabChannel?: TabChannelOptions;
  /** The site's origin; the browser's by default. The build's rendering, with no window, names one. */
  origin?: string;
}

/**
 * Starts the machines and builds the router around them. The machines navigate through the
 * router (e.g. to `/login` on logout), which only exists once the runtime does: the navigate
 * function is bound late.
 *
 * @example
 * const { runtime, router } = createApp(config, { storage: window.localStorage });
 */
export function createApp(config: AppConfig, deps: AppDeps): { runtime: AppRuntime; router: AppRouter } {
  const app = startMachines(config, deps);
  return { runtime: app.runtime, router: app.buildRouter() };
}

/**
 * `createApp` in two steps, so that a start-up can yield between them: the machines now, the
 * router when `buildRouter` is called (once).
 *
 * @example const app = startMachines(config, deps); await nextTask(); const router = app.buildRouter();
 */
export function startMachines(
  config: AppConfig,
  deps: AppDeps,
): { runtime: AppRuntime; buildRouter: () => AppRouter } {
  let router: AppRouter | null = null;
  // The router's guards and the sign-in screen read the resume path through this tab's own copy.
  const routerStorage = withTabResumePath(deps.storage);
  const runtime = createAppRuntime(config, {
    navigate: (to, options) => {
      // The session ended under a person (a failed refresh, a sign-out in another tab): after
      // signing in again they come back to the page they were on.
      if (options.resume && router) rememberResumePath(routerStorage, router.state.location.href);
      // Decided already (a session ended; a refresh the person agreed to): past the leave guard.
      void router?.navigate({ href: to, replace: options.replace, ignoreBlocker: true });
    },
    storage: deps.storage,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.tabChannel ? { tabChannel: deps.tabChannel } : {}),
  });
  return {
    runtime,
    buildRouter: () => {
      router ??= createAppRouter({ runtime, storage: routerStorage }, deps.history, deps.origin);
      return router;
    },
  };
}
