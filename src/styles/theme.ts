import { createTheme } from '@mantine/core';

/** The app's Mantine theme: one accent colour, visible keyboard focus, motion off on request. */
export const theme = createTheme({
  primaryColor: 'teal',
  // Shade 9 keeps white button text and teal links above the 4.5:1 contrast of WCAG AA.
  primaryShade: 9,
  defaultRadius: 'md',
  focusRing: 'auto',
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
});
