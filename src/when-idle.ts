/**
 * Resolves once the browser has a moment with nothing to do, at the latest after `timeoutMs`;
 * where there is no `requestIdleCallback` (Safari, tests), on the next turn of the event loop.
 * Work that is not needed for the first screen (schemas of later calls, the catalogue) waits
 * for it at start-up, so it runs after the first screen has been painted, not before.
 *
 * @example const schemas = whenIdle().then(() => import('../contracts/auth.ts'));
 */
export function whenIdle(timeoutMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 0);
  });
}
