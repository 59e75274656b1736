import { useEffect } from 'react';
import { opensMenu, type TouchPoint } from './edge-swipe.ts';

/**
 * Calls `onOpen` once per touch when the user swipes in from the left edge of the screen.
 * A gesture of the view, not app behaviour: it only opens the menu drawer.
 */
export function useEdgeSwipe(onOpen: () => void, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return undefined;
    let start: TouchPoint | null = null;
    const onStart = (event: TouchEvent) => {
      const touch = event.touches[0];
      start = touch && event.touches.length === 1 ? { x: touch.clientX, y: touch.clientY } : null;
    };
    const onMove = (event: TouchEvent) => {
      const touch = event.touches[0];
      if (!start || !touch) return;
      if (opensMenu(start, { x: touch.clientX, y: touch.clientY })) {
        start = null;
        onOpen();
      }
    };
    const onEnd = () => {
      start = null;
    };
    document.addEventListener('touchstart', onStart, { passive: true });
    document.addEventListener('touchmove', onMove, { passive: true });
    document.addEventListener('touchend', onEnd);
    document.addEventListener('touchcancel', onEnd);
    return () => {
      document.removeEventListener('touchstart', onStart);
      document.removeEventListener('touchmove', onMove);
      document.removeEventListener('touchend', onEnd);
      document.removeEventListener('touchcancel', onEnd);
    };
  }, [onOpen, enabled]);
}
