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

/**
 * Resolves in a task of its own (`scheduler.yield()` where the browser has it, else a zero
 * timeout), so that the browser can paint and answer input between two pieces of start-up work
 * instead of running them as one long task.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
