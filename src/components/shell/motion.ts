/** Page transitions of spec §9: iOS-style slide, or Material-style fade and rise. */
export type MotionStyle = 'ios' | 'material';

/** Spec §9: an iOS-style transition lasts 540 ms. */
export const IOS_TRANSITION_MS = 540;
/** Spec §9: Material-style transitions last 200–280 ms; entering screens use the longer end. */
export const MATERIAL_TRANSITION_MS = 250;
/** localStorage key of the user's choice; absent means "follow the platform". */
export const MOTION_SETTING_KEY = 'fleet-manager.motion-style';

/** Duration of a page transition in the given style, or 0 when the user asks for reduced motion. */
export function transitionMs(style: MotionStyle, reducedMotion: boolean): number {
  if (reducedMotion) return 0;
  return style === 'ios' ? IOS_TRANSITION_MS : MATERIAL_TRANSITION_MS;
}

/** The style that feels native on the device: iOS style on iPhone and iPad, Material elsewhere. */
export function platformMotionStyle(
  nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> | undefined,
): MotionStyle {
  if (!nav) return 'material';
  if (/iPhone|iPad|iPod/.test(nav.userAgent)) return 'ios';
  // iPadOS reports itself as a Mac; only the touch points give it away.
  if (/Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1) return 'ios';
  return 'material';
}

/** Reads a stored setting; anything but `ios` or `material` means "follow the platform". */
export function parseMotionStyle(value: string | null): MotionStyle | null {
  return value === 'ios' || value === 'material' ? value : null;
}
