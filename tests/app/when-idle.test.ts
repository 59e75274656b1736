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
});
