import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while React hydrates markup the build prerendered (and when the build renders it), true
 * otherwise: a client render sees true from its first render. What depends on the visit (a route
 * parameter, the browser) renders behind it, so the markup hydrated is the markup prerendered,
 * and the visit's own content follows in the next render.
 *
 * @example const hydrated = useHydrated(); return <Text>{hydrated ? `Model ${id}` : '\u00a0'}</Text>;
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
