import { type RefObject, useEffect } from 'react';

/** How often, and for how long, focus dropped to nowhere is put back. */
const RETRY_EVERY_MS = 50;
const RETRY_FOR_MS = 2_000;

/**
 * While `active`, focus that drops out of `container` to nowhere goes back where it was.
 *
 * Chromium sometimes blurs a link of the open phone menu on its own a few milliseconds after the
 * menu focused it, while the next screen loads beneath (a native blur: no script of the page asks
 * for it, and the link stays visible), and may refuse focus for a moment after. A keyboard or
 * screen-reader user would be left on the page's body behind the open menu. So focus is put back,
 * retried until it holds. Focus that moves to another element, or leaves with the window (the
 * element stays the document's active one), is left alone.
 */
export function useKeepFocusWithin(container: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const element = container.current;
    if (!active || !element) return undefined;
    let retry: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      clearInterval(retry);
      retry = undefined;
    };
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget !== null || !(event.target instanceof HTMLElement)) return;
      const lost = event.target;
      const until = Date.now() + RETRY_FOR_MS;
      stop();
      retry = setInterval(() => {
        const nowhere = document.activeElement === null || document.activeElement === document.body;
        if (!nowhere || !lost.isConnected || Date.now() > until) return stop();
        lost.focus();
      }, RETRY_EVERY_MS);
    };
    element.addEventListener('focusout', onFocusOut);
    return () => {
      stop();
      element.removeEventListener('focusout', onFocusOut);
    };
  }, [container, active]);
}
