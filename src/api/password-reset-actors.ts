import { fromPromise } from 'xstate';
import type { ApiClient } from './api-client.ts';

/**
 * The password-reset machine's I/O on the configuration service: `POST /users/password-reset`
 * asks for an access code; `PUT /users/password` sets the new password with the headers
 * `main_email`, `temp_code` and `new_password` and no body (specification §3, §7).
 */
export function createPasswordResetActors(configApi: ApiClient) {
  return {
    requestCode: fromPromise<void, { email: string }>(async ({ input }) => {
      await configApi('/users/password-reset', { method: 'POST', body: { main_email: input.email } });
    }),
    changePassword: fromPromise<void, { email: string; code: string; newPassword: string }>(
      async ({ input }) => {
        await configApi('/users/password', {
          method: 'PUT',
          headers: { main_email: input.email, temp_code: input.code, new_password: input.newPassword },
        });
      },
    ),
  };
}
