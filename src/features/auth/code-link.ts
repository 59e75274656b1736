import { redirect } from '@tanstack/react-router';
import type { AppRuntime } from '../../app/app-runtime.ts';

/**
 * The sign-in screen's URL: `?step=reset` opens "Forgot password?", `?step=code` opens "Choose
 * your password" (the "I have a code" step, and where the link in a code mail leads).
 */
export interface LoginSearch {
  step?: 'reset' | 'code';
}

/** `validateSearch` of `/login`: anything else than the two steps is the sign-in form. */
export function loginSearch(search: Record<string, unknown>): LoginSearch {
  return search.step === 'reset' || search.step === 'code' ? { step: search.step } : {};
}

/**
 * `beforeLoad` of `/login?step=code`: opens "Choose your password". A code mail's link carries
 * the e-mail and the code in the fragment (`#email=…&code=…`, which no server sees); they are
 * handed to the password-reset machine and the fragment is dropped from the address, so the code
 * stays out of the history and of anything shared from the address bar.
 *
 * @throws a router redirect to `/login?step=code` without the fragment when it held a code
 */
export function openCodeStep({
  search,
  location,
  runtime,
}: {
  search: LoginSearch;
  location: { hash: string };
  runtime: AppRuntime;
}): void {
  if (search.step !== 'code') return;
  const fields = new URLSearchParams(location.hash.replace(/^#/, ''));
  const email = fields.get('email')?.trim() ?? '';
  const code = fields.get('code')?.trim() ?? '';
  const reset = runtime.passwordReset;
  if (email || code) {
    reset.send({ type: 'reset.haveCode', ...(email ? { email } : {}), ...(code ? { code } : {}) });
    throw redirect({ to: '/login', search: { step: 'code' }, replace: true });
  }
  if (reset.getSnapshot().matches('email')) reset.send({ type: 'reset.haveCode' });
}
