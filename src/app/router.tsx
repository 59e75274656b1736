import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { BrokenPage, NotFoundPage } from '../components/lost-page.tsx';
import { RouteFocus } from '../components/route-focus.tsx';
import { RoutePending } from '../components/route-pending.tsx';
import { routeTree } from '../route-tree.gen.ts';
import type { RouterContext } from '../routes/__root.tsx';

/**
 * Builds the app's router over the generated route tree.
 *
 * @param context the started runtime and the storage the guards write the resume path to
 * @param history browser history by default; tests pass `createMemoryHistory`
 * @example
 * const router = createAppRouter({ runtime, storage: window.localStorage });
 */
export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context,
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    scrollRestoration: true,
    // A guard that waits (stored sessions being refreshed) shows "Loading…" rather than nothing;
    // quick ones never flash it.
    defaultPendingComponent: RoutePending,
    defaultPendingMs: 150,
    defaultPendingMinMs: 300,
    InnerWrap: RouteFocus,
    // The app's own pages, never the router's bare "Something went wrong!" or "Not Found".
    defaultNotFoundComponent: () => <NotFoundPage />,
    defaultErrorComponent: BrokenPage,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
