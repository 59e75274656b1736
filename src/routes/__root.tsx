import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { AppRuntime } from '../app/app-runtime.ts';
import { LeaveGuard } from '../components/leave-guard.tsx';

/**
 * What every route's `beforeLoad` and `loader` can read: the running machines and where the
 * resume path is kept. Declared here, with the root route, so that the router and the guards
 * both depend on the route tree's root rather than on each other.
 */
export interface RouterContext {
  runtime: AppRuntime;
  storage: Storage;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <LeaveGuard />
    </>
  ),
});
