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
    const wait = () => {
      if (!waiting.has(resolve)) return;
      if (typeof requestIdleCallback === 'function') requestIdleCallback(done, { timeout: timeoutMs });
      else setTimeout(done, 0);
    };
    if (hold) hold.released.then(wait);
    else wait();
  });
}

/** `Promise.withResolvers`, which not every browser the app supports has. */
function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

let hurried = false;
const waiting = new Set<() => void>();
let hold: { released: Promise<void>; release: () => void } | null = null;

/** What a person does that says they are using the page: a key, a press, typing or autofill. */
const INPUT_EVENTS = ['keydown', 'pointerdown', 'input'] as const;

/**
 * Keeps `whenIdle`'s work waiting until the person does something in `target` (a key, a press,
 * typing: the screen), or `releaseDeferred()`/`stopDeferring()` is called: a signed-out screen the build
 * prerendered (sign-in, the open field pages) needs none of it, and loading it while the page
 * is idle would be work in the way of the first keystroke. A person typing their e-mail address
 * leaves it seconds to load before "Sign in" needs it. Does nothing once hurried.
 */
export function holdDeferredUntilInput(
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
): void {
  if (hurried || hold) return;
  const { promise: released, resolve: release } = withResolvers();
  const onInput = () => releaseDeferred();
  hold = {
    released,
    release: () => {
      for (const type of INPUT_EVENTS) target.removeEventListener(type, onInput, true);
      release();
    },
  };
  for (const type of INPUT_EVENTS) target.addEventListener(type, onInput, true);
}

/** Ends `holdDeferredUntilInput`'s hold: the deferred work waits for an idle moment again. */
export function releaseDeferred(): void {
  const current = hold;
  hold = null;
  current?.release();
}

/**
 * Ends the waiting of `whenIdle`, now and for the rest of the page's life: the first screen
 * itself needs what was deferred (the open device page shows the catalogue; a sign-in checks the
 * service's answer with it), so it is loaded at once rather than after the start-up.
 */
export function stopDeferring(): void {
  hurried = true;
  releaseDeferred();
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
