import { statusOf } from './api-error.ts';

/** Toast text of the 400 handler (specification §8). */
export const AUTH_MISMATCH_MESSAGE = 'Logged out due to authentication mismatch';
/** How long that toast stays up. */
export const AUTH_MISMATCH_TOAST_MS = 2000;

export interface AuthMismatchDeps {
  /** Shows a toast, e.g. Mantine's `notifications.show({ message, autoClose })`. */
  notify: (toast: { message: string; durationMs: number }) => void;
  /** Sends `auth.logout`. */
  logout: () => void;
}

/**
 * The 400 "authentication mismatch" handler of specification §8: toast for 2 seconds, then log
 * out. Deliberately NOT wired into the API clients: the specification says the handler exists but
 * is not used, and a 400 is far more often a plain validation error that must reach the form.
 *
 * @returns a function that handles `error` when it is a 400 and answers whether it did
 * @example
 * const onMismatch = createAuthMismatchHandler({ notify, logout: () => auth.send({ type: 'auth.logout' }) });
 */
export function createAuthMismatchHandler(deps: AuthMismatchDeps): (error: unknown) => boolean {
  return (error) => {
    if (statusOf(error) !== 400) return false;
    deps.notify({ message: AUTH_MISMATCH_MESSAGE, durationMs: AUTH_MISMATCH_TOAST_MS });
    deps.logout();
    return true;
  };
}
