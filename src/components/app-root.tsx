import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { RouterProvider } from '@tanstack/react-router';
import type { AppRuntime } from '../app-runtime.ts';
import type { AppRouter } from '../router.tsx';
import { theme } from '../styles/theme.ts';
import { RuntimeProvider } from './runtime-context.tsx';

/** Everything above the routes: theme, toasts, the runtime for views, and the router. */
export function AppRoot({ runtime, router }: { runtime: AppRuntime; router: AppRouter }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="top-right" />
      <RuntimeProvider runtime={runtime}>
        <RouterProvider router={router} />
      </RuntimeProvider>
    </MantineProvider>
  );
}
