import { MantineProvider } from '@mantine/core';
import { type AnyRouter, RouterProvider } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { cssVariablesResolver, theme } from '../styles/theme.ts';
import { whenIdle } from '../when-idle.ts';
import type { AppRuntime } from './app-runtime.ts';
import { RuntimeProvider } from './runtime-context.tsx';

// Loaded after the first screen, at an idle moment: it is not needed to show it (see toasts.tsx),
// and on a prerendered signed-out page it waits for the person to act (see when-idle.ts).
const Toasts = lazy(() => whenIdle().then(() => import('../components/toasts.tsx')));

/**
 * Everything above the routes: theme, toasts, the runtime for views, and the router (the app's, or
 * the one the build renders the signed-in shell's frame with).
 */
export function AppRoot({ runtime, router }: { runtime: AppRuntime; router: AnyRouter }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
      <RuntimeProvider runtime={runtime}>
        <RouterProvider router={router} />
      </RuntimeProvider>
    </MantineProvider>
  );
}
