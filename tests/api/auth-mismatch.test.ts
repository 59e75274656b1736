import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/api-error.ts';
import {
  AUTH_MISMATCH_MESSAGE,
  AUTH_MISMATCH_TOAST_MS,
  createAuthMismatchHandler,
} from '../../src/api/auth-mismatch.ts';

function setUp() {
  const events: string[] = [];
  const toasts: Array<{ message: string; durationMs: number }> = [];
  const handle = createAuthMismatchHandler({
    notify: (toast) => {
      toasts.push(toast);
      events.push('toast');
    },
    logout: () => events.push('logout'),
  });
  return { handle, events, toasts };
}

describe('400 authentication-mismatch handler (exists, not wired up)', () => {
  it("shows 'Logged out due to authentication mismatch' for 2 seconds, then logs out", () => {
    const { handle, events, toasts } = setUp();
    const handled = handle(new ApiError('Bad request', { status: 400, path: '/fleet/sites/1' }));
    expect(handled).toBe(true);
    expect(toasts).toEqual([{ message: 'Logged out due to authentication mismatch', durationMs: 2000 }]);
    expect(AUTH_MISMATCH_MESSAGE).toBe('Logged out due to authentication mismatch');
    expect(AUTH_MISMATCH_TOAST_MS).toBe(2000);
    expect(events).toEqual(['toast', 'logout']);
  });

  it('leaves every other failure alone', () => {
    const { handle, events } = setUp();
    expect(handle(new ApiError('Forbidden', { status: 403, path: '/x' }))).toBe(false);
    expect(handle(new Error('boom'))).toBe(false);
    expect(events).toEqual([]);
  });
});
