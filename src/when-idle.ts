/**
 * Resolves once the browser has a moment with nothing to do, at the latest after `timeoutMs`;
 * where there is no `requestIdleCallback` (Safari, tests), on the next turn of the event loop.
 * Work that is not needed for the first screen (schemas of later calls, the catalogue) waits
 * for it at start-up, so it runs after the first screen has been painted, not before.
 *
 * @example const schemas = whenIdle().then(() => import('../contracts/auth.ts'));
 */
export function whenIdle(timeoutMs = 2000): Promise<void> {
  if (hurried) return Promise.resolve();
  return new Promise((resolve) => {
    waiting.add(resolve);
    const done = () => {
      waiting.delete(resolve);
      resolve();
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(done, { timeout: timeoutMs });
    else setTimeout(done, 0);
  });
}

let hurried = false;
const waiting = new Set<() => void>();

/**
 * Ends the waiting of `whenIdle`, now and for the rest of the page's life: the first screen
 * itself needs what was deferred (the open device page shows the catalogue), so it is loaded at
 * once rather than after the start-up.
 */
export function stopDeferring(): void {
  hurried = true;
  for (const resolve of waiting) resolve();
  waiting.clear();
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
