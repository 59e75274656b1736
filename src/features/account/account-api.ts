import type { OwnPasswordChange } from '../../../contracts/users.ts';
import type { ApiClient } from '../../api/api-client.ts';

/**
 * `PUT /users/me/password` with the current password; every session of the user ends, this one
 * too. @throws ApiError (403 `current_password_wrong`)
 */
export async function changeOwnPassword(api: ApiClient, body: OwnPasswordChange, signal?: AbortSignal) {
  await api('/users/me/password', { method: 'PUT', body, ...(signal ? { signal } : {}) });
}
