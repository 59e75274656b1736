import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { NotFoundPage } from '../components/lost-page.tsx';
import { RouteFocus } from '../components/route-focus.tsx';
import { RoutePending } from '../components/route-pending.tsx';
import { routeTree } from '../route-tree.gen.ts';
import type { RouterContext } from '../routes/__root.tsx';
import { RouteError } from './route-error.tsx';

/**
 * Builds the app's router over the generated route tree.
 *
 * @param context the started runtime and the storage the guards write the resume path to
 * @param history browser history by default; tests pass `createMemoryHistory`
 * @param origin the browser's by default; rendering at build time, with no window, passes one
 * @example
 * const router = createAppRouter({ runtime, storage: window.localStorage });
 */
export function createAppRouter(context: RouterContext, history?: RouterHistory, origin?: string) {
  return createRouter({
    routeTree,
    context,
    ...(history ? { history } : {}),
    ...(origin ? { origin } : {}),
    defaultPreload: 'intent',
    // Scroll positions belong to a window; rendering at build time there is none.
    scrollRestoration: typeof window !== 'undefined',
    // A guard that waits (stored sessions being refreshed) shows "Loading…" rather than nothing;
    // quick ones never flash it.
    defaultPendingComponent: RoutePending,
    // A route that fails (a screen's code that could not be downloaded among others) shows the
    // app's own page, with a way on.
    defaultErrorComponent: RouteError,
    defaultPendingMs: 150,
    defaultPendingMinMs: 300,
    InnerWrap: RouteFocus,
    // The app's own pages, never the router's bare "Something went wrong!" or "Not Found".
    defaultNotFoundComponent: () => <NotFoundPage />,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
