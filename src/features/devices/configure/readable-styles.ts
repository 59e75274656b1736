/**
 * The theme's teal at its default shade is too light for white text and for text on a light
 * tint (WCAG AA asks 4.5:1): the panel's filled buttons use the darkest shade, and alert titles
 * keep the body text colour (the alert's colour and icon still say what kind it is).
 */
export const PRIMARY = 'teal.9';

export const READABLE_ALERT = { title: { color: 'var(--mantine-color-text)' } } as const;
