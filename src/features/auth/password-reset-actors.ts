import { type ActorRefFrom, fromPromise, waitFor } from 'xstate';
import type { authMachine } from '../../../machines/auth/auth-machine.ts';
import { isAuthenticated, loginError } from '../../../machines/auth/auth-selectors.ts';
import { SESSION_KEYS } from '../../../machines/storage-keys.ts';
import type { ApiClient } from '../../api/api-client.ts';

/** Printable ASCII: what an HTTP header value carries intact everywhere. */
const HEADER_SAFE = /^[\x20-\x7E]*$/;

/** Why a new password with other characters is refused before it is sent (it travels in a header). */
export const HEADER_UNSAFE_PASSWORD =
  'The new password can only use letters A–Z, digits, spaces and the symbols on a US keyboard.';

/**
 * The password-reset machine's I/O on the configuration service: `POST /users/password-reset`
 * asks for an access code; `PUT /users/password` sets the new password with the headers
 * `main_email`, `temp_code` and `new_password` and no body (specification §3, §7); `signIn`
 * signs in with the new password through the auth machine (both services), so that a new user
 * who followed the link in their mail is in.
 */
export function createPasswordResetActors(configApi: ApiClient, auth: ActorRefFrom<typeof authMachine>) {
  return {
    signIn: fromPromise<void, { email: string; password: string }>(async ({ input }) => {
      auth.send({ type: 'auth.login', email: input.email, password: input.password });
      const after = await waitFor(auth, (s) => !s.matches({ session: 'signingIn' }));
      if (!isAuthenticated(after)) throw new Error(loginError(after) ?? 'The sign-in did not succeed');
    }),
    requestCode: fromPromise<void, { email: string }>(async ({ input }) => {
      await configApi('/users/password-reset', { method: 'POST', body: { main_email: input.email } });
    }),
    changePassword: fromPromise<void, { email: string; code: string; newPassword: string }>(
      async ({ input }) => {
        // fetch refuses header values outside Latin-1 with an error that reads like a network failure.
        if (!HEADER_SAFE.test(input.newPassword) || !HEADER_SAFE.test(input.code)) {
          throw new Error(HEADER_UNSAFE_PASSWORD);
        }
        await configApi('/users/password', {
          method: 'PUT',
          headers: { main_email: input.email, temp_code: input.code, new_password: input.newPassword },
        });
      },
    ),
  };
}

/**
 * Keeps the open "Choose your password" step of this tab across a reload (the e-mail only, in
 * sessionStorage; never the code), and forgets it when the step closes.
 */
export function codeStepMemory(storage: Storage | null) {
  return {
    remembered: (): string | null => storage?.getItem(SESSION_KEYS.codeStepEmail) ?? null,
    remember: (email: string | null) => {
      if (!storage) return;
      if (email === null) storage.removeItem(SESSION_KEYS.codeStepEmail);
      else storage.setItem(SESSION_KEYS.codeStepEmail, email);
    },
  };
}
