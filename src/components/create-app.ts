import type { RouterHistory } from '@tanstack/react-router';
import type { AppConfig } from '../../contracts/app-config.ts';
import { type AppRuntime, createAppRuntime, type MachineClock } from '../app-runtime.ts';
import { type AppRouter, createAppRouter } from '../router.tsx';

export interface AppDeps {
  storage: Storage;
  fetch?: typeof fetch;
  history?: RouterHistory;
  /** Timers of the machines that wait (the devices-list cooldown); tests pass a simulated clock. */
  clock?: MachineClock;
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
  let router: AppRouter | null = null;
  const runtime = createAppRuntime(config, {
    navigate: (to, options) => {
      void router?.navigate({ href: to, replace: options.replace });
    },
    storage: deps.storage,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  router = createAppRouter({ runtime, storage: deps.storage }, deps.history);
  return { runtime, router };
}
