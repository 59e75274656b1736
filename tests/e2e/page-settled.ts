import type { Page, Request } from 'playwright-core';

/** Two idle moments in a row in the page: the second is asked for inside the first. */
function twoIdleMoments(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestIdleCallback(() => requestIdleCallback(() => resolve()));
      }),
  );
}

/**
 * Resolves once the page has settled: it has had two idle moments in a row during which it
 * started no request and had none open. Work a page puts off until it is idle (`whenIdle`, which
 * asks for an idle moment too) has started by then, and whatever that work loaded has been asked
 * for and answered. A test that shows that an untouched page loads nothing waits for this, the
 * event itself, rather than for a fixed time.
 */
export async function pageSettled(page: Page): Promise<void> {
  const open = new Set<Request>();
  let started = 0;
  let ended: () => void = () => undefined;
  const onRequest = (request: Request) => {
    started += 1;
    open.add(request);
  };
  const onEnd = (request: Request) => {
    open.delete(request);
    if (open.size === 0) ended();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onEnd);
  page.on('requestfailed', onEnd);
  try {
    for (;;) {
      const before = started;
      await twoIdleMoments(page);
      if (started === before && open.size === 0) return;
      if (open.size > 0)
        await new Promise<void>((resolve) => {
          ended = resolve;
        });
    }
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onEnd);
    page.off('requestfailed', onEnd);
  }
}
