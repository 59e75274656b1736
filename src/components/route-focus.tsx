import { useRouterState } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef } from 'react';

/** A screen marks the control that should take focus when it opens (the sign-in E-mail field). */
export const ROUTE_FOCUS_ATTRIBUTE = 'data-route-focus';

/**
 * Set on `<html>` to the path whose focus has been handled, moved or deliberately kept: what a test
 * waits for to know the decision has been made, rather than waiting for time to pass.
 */
export const FOCUSED_ROUTE_ATTRIBUTE = 'data-focused-route';

/** The element a newly opened screen gives focus to: its marked control, else its main heading. */
function focusTarget(firstScreen: boolean): HTMLElement | null {
  const marked = document.querySelector<HTMLElement>(`[${ROUTE_FOCUS_ATTRIBUTE}]`);
  // On the first screen of a visit the page starts at the top, where the skip link is.
  if (marked || firstScreen) return marked;
  const heading = document.querySelector<HTMLElement>('main h1');
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  return heading;
}

/**
 * Moves focus to the new screen when the path changes, so a screen reader announces it and a
 * keyboard user goes on from there rather than from the link that led away. It wraps the route
 * tree inside the router, so its effect runs after the new screen has rendered.
 *
 * A person who moved focus themselves while the screen was loading (opened the phone menu, say)
 * keeps it: focus moves only if it is still where it was when the navigation began, or nowhere.
 * On the first screen it moves only from nowhere.
 */
export function RouteFocus({ children }: { children: ReactNode }) {
  const requested = useRouterState({ select: (state) => state.location.pathname });
  const pathname = useRouterState({ select: (state) => state.resolvedLocation?.pathname });
  const previous = useRef<string | undefined>(undefined);
  /** Where focus was when the navigation to `path` began. */
  const start = useRef<{ path: string; focused: Element | null } | null>(null);
  // Declared first: when a navigation begins and ends in one render, this runs before the move.
  useEffect(() => {
    start.current = { path: requested, focused: document.activeElement };
  }, [requested]);
  useEffect(() => {
    if (pathname === undefined || pathname === previous.current) return;
    const firstScreen = previous.current === undefined;
    previous.current = pathname;
    const active = document.activeElement;
    const movedMeanwhile =
      start.current?.path === pathname &&
      active !== null &&
      active !== document.body &&
      active !== start.current.focused;
    // A prerendered first screen may have been in use before the app took it over: a person
    // already in a field (the page's own autofocus, or a tap) stays there.
    const inUseBeforeApp = firstScreen && active !== null && active !== document.body;
    if (!inUseBeforeApp && (firstScreen || !movedMeanwhile)) focusTarget(firstScreen)?.focus();
    document.documentElement.setAttribute(FOCUSED_ROUTE_ATTRIBUTE, pathname);
  }, [pathname]);
  return <>{children}</>;
}
