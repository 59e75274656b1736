/** Spec §9: a swipe must travel more than this many pixels before it opens the menu. */
export const SWIPE_THRESHOLD_PX = 10;
/** How close to the left edge a touch must start to count as an edge swipe. */
export const EDGE_ZONE_PX = 24;

export interface TouchPoint {
  x: number;
  y: number;
}

/**
 * True when a touch that started at `start` and is now at `current` is an edge swipe that
 * opens the menu: it began in the left edge zone, moved right past the threshold, and moved
 * more sideways than up or down (so scrolling a page never opens the menu).
 *
 * @example
 * opensMenu({ x: 4, y: 300 }, { x: 15, y: 302 }) // true: 11 px to the right
 * opensMenu({ x: 4, y: 300 }, { x: 14, y: 302 }) // false: 10 px is not past the threshold
 */
export function opensMenu(start: TouchPoint, current: TouchPoint, threshold = SWIPE_THRESHOLD_PX): boolean {
  if (start.x > EDGE_ZONE_PX) return false;
  const dx = current.x - start.x;
  const dy = Math.abs(current.y - start.y);
  return dx > threshold && dx > dy;
}
