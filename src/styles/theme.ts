import {
  type CSSVariablesResolver,
  createTheme,
  defaultVariantColorsResolver,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Filled buttons darken under the pointer: Mantine's own hover of the darkest shade is one shade
 * lighter (teal 8 under white text is 3.9:1), so a button held under the pointer, such as a Write
 * bar that stays on screen, would fall below 4.5:1.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'filled') return colors;
  return { ...colors, hover: `color-mix(in srgb, ${colors.background} 85%, black)` };
};

/** Darker than Mantine's darkest teal (shade 9, #087f5b). */
const DEEP_TEAL = '#06684a';

/**
 * Colours Mantine derives from the theme and writes on the root itself, after the app's stylesheet,
 * so they can only be changed here. Links are shade 9 otherwise: 5.0:1 on white but 4.49:1 on the
 * grey of a table row under the pointer, which a link in a list then fails (WCAG AA asks 4.5:1);
 * the deeper teal keeps 6.1:1 there. Filled teal under the pointer goes darker, not to shade 8.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-anchor': DEEP_TEAL, '--mantine-color-teal-filled-hover': DEEP_TEAL },
  dark: {},
});

/** The app's Mantine theme: one accent colour, visible keyboard focus, motion off on request. */
export const theme = createTheme({
  primaryColor: 'teal',
  // Shade 9 keeps white button text and teal links above 4.5:1 (WCAG AA); shade 6 is 2.5:1.
  primaryShade: { light: 9, dark: 8 },
  defaultRadius: 'md',
  focusRing: 'auto',
  respectReducedMotion: true,
  variantColorResolver,
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
