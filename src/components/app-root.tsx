import { type CSSVariablesResolver, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { RouterProvider } from '@tanstack/react-router';
import type { AppRuntime } from '../app-runtime.ts';
import type { AppRouter } from '../router.tsx';
import { theme } from '../styles/theme.ts';
import { RuntimeProvider } from './runtime-context.tsx';

/**
 * Mantine's default shades put white on the accent colour, the accent on white and dimmed grey
 * text below the 4.5:1 contrast that WCAG asks of body text (axe-core reports them as serious).
 * These keep the palette and pick its darker shades.
 */
const contrastResolver: CSSVariablesResolver = (current) => {
  const accent = current.primaryColor;
  return {
    variables: {},
    light: {
      '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
      '--mantine-color-anchor': `var(--mantine-color-${accent}-9)`,
      [`--mantine-color-${accent}-filled`]: `var(--mantine-color-${accent}-9)`,
      [`--mantine-color-${accent}-filled-hover`]: `var(--mantine-color-${accent}-8)`,
      [`--mantine-color-${accent}-light`]: `var(--mantine-color-${accent}-0)`,
      [`--mantine-color-${accent}-light-hover`]: `var(--mantine-color-${accent}-1)`,
    },
    dark: {},
  };
};

/** Everything above the routes: theme, toasts, the runtime for views, and the router. */
export function AppRoot({ runtime, router }: { runtime: AppRuntime; router: AppRouter }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={contrastResolver}>
      <Notifications position="top-right" />
      <RuntimeProvider runtime={runtime}>
        <RouterProvider router={router} />
      </RuntimeProvider>
    </MantineProvider>
  );
}
