import { createTheme } from '@mantine/core';

/** The app's Mantine theme: one accent colour, visible keyboard focus, motion off on request. */
export const theme = createTheme({
  primaryColor: 'teal',
  // Shade 9 keeps white button text and teal links above 4.5:1 (WCAG AA); shade 6 is 2.5:1.
  primaryShade: { light: 9, dark: 8 },
  defaultRadius: 'md',
  focusRing: 'auto',
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    // A dialog's close button is an icon: it needs a name for screen readers (axe: button-name).
    // A plain object, not Modal.extend, so the sign-in screen does not load the Modal component.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // A toast's close button too.
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});
