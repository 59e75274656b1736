import { describe, expect, it, vi } from 'vitest';

describe('whenIdle and stopDeferring', () => {
  it('holds work until the browser is idle, until a screen needs it at once', async () => {
    // No idle callback ever comes: only stopDeferring can release the waits.
    vi.stubGlobal('requestIdleCallback', () => 0);
    vi.resetModules();
    const { stopDeferring, whenIdle } = await import('../../src/when-idle.ts');
    const done: string[] = [];
    void whenIdle().then(() => done.push('first'));
    void whenIdle().then(() => done.push('second'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toEqual([]);

    stopDeferring();
    await Promise.resolve();
    expect(done).toEqual(['first', 'second']);

    // From then on nothing waits.
    let later = false;
    await whenIdle().then(() => {
      later = true;
    });
    expect(later).toBe(true);
    vi.unstubAllGlobals();
  });

  it('holds the deferred work of a prerendered signed-out page until the person does something', async () => {
    // Idle callbacks come at once: only the hold keeps the work waiting.
    const idle = vi.fn((callback: () => void) => {
      callback();
      return 0;
    });
    vi.stubGlobal('requestIdleCallback', idle);
    vi.resetModules();
    const { holdDeferredUntilInput, whenIdle } = await import('../../src/when-idle.ts');
    const page = new EventTarget();
    holdDeferredUntilInput(page);
    const done: string[] = [];
    void whenIdle().then(() => done.push('schemas'));
    page.dispatchEvent(new Event('focusin'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toEqual([]);
    expect(idle).not.toHaveBeenCalled();

    // The first key: the work waits for an idle moment, which comes.
    page.dispatchEvent(new Event('keydown'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(done).toEqual(['schemas']);
    expect(idle).toHaveBeenCalledTimes(1);
    vi.unstubAllGlobals();
  });

  it('lets the held work go when the app leaves the page or a screen needs it at once', async () => {
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => {
      callback();
      return 0;
    });
    vi.resetModules();
    const { holdDeferredUntilInput, releaseDeferred, stopDeferring, whenIdle } = await import(
      '../../src/when-idle.ts'
    );
    const page = new EventTarget();
    holdDeferredUntilInput(page);
    let released = false;
    void whenIdle().then(() => {
      released = true;
    });
    releaseDeferred();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(released).toBe(true);

    // Held again (a later page in the same module instance), then hurried by a screen.
    holdDeferredUntilInput(page);
    let hurried = false;
    void whenIdle().then(() => {
      hurried = true;
    });
    stopDeferring();
    await Promise.resolve();
    expect(hurried).toBe(true);
    vi.unstubAllGlobals();
  });
});
