import { type OwnPasswordChange, type ProfileUpdate, userSchema } from '../../../contracts/users.ts';
import type { ApiClient } from '../../api/api-client.ts';

/** The signed-in user's own record (`GET /users/{id}`). @throws ApiError */
export async function fetchOwnProfile(api: ApiClient, id: number, signal?: AbortSignal) {
  return userSchema.parse(await api(`/users/${id}`, signal ? { signal } : {}));
}

/** `PUT /users/me/profile`: one's own name and phone. @throws ApiError */
export async function updateOwnProfile(api: ApiClient, body: ProfileUpdate, signal?: AbortSignal) {
  return userSchema.parse(
    await api('/users/me/profile', { method: 'PUT', body, ...(signal ? { signal } : {}) }),
  );
}

/**
 * `PUT /users/me/password` with the current password; every session of the user ends, this one
 * too. @throws ApiError (403 `current_password_wrong`)
 */
export async function changeOwnPassword(api: ApiClient, body: OwnPasswordChange, signal?: AbortSignal) {
  await api('/users/me/password', { method: 'PUT', body, ...(signal ? { signal } : {}) });
}
