import { sitePageSchema } from '../../../contracts/sites.ts';
import {
  acceptedSchema,
  type CreateInstallerRequest,
  type CreateOwnerRequest,
  type UpdateUserRequest,
  type UserRole,
  userPageSchema,
  userSchema,
} from '../../../contracts/users.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { LIST_PAGE_SIZE, type ListSearch, listQuery } from '../../components/lists/list-search.ts';

/**
 * Users `userId` sees (`GET /fleet/user-list/{userId}/{page}`), searched by e-mail or name,
 * sorted by the server. @throws ApiError
 */
export async function fetchUsersPage(
  api: ApiClient,
  userId: number,
  list: ListSearch,
  pageSize = LIST_PAGE_SIZE,
) {
  return userPageSchema.parse(
    await api(`/fleet/user-list/${userId}/${list.page}`, { query: listQuery(list, pageSize) }),
  );
}

/** Users with one role that the caller sees (`GET /users/role/{role}`), sorted by the server. @throws ApiError */
export async function fetchUsersByRole(
  api: ApiClient,
  role: UserRole,
  list: ListSearch,
  pageSize = LIST_PAGE_SIZE,
) {
  return userPageSchema.parse(
    await api(`/users/role/${role}`, { query: { page: list.page, ...listQuery(list, pageSize) } }),
  );
}

/** `GET /users/{id}`. @throws ApiError */
export async function fetchUser(api: ApiClient, id: number) {
  return userSchema.parse(await api(`/users/${id}`));
}

/** `PUT /users/{id}`. @throws ApiError */
export async function updateUser(api: ApiClient, id: number, body: UpdateUserRequest, signal?: AbortSignal) {
  return userSchema.parse(await api(`/users/${id}`, { method: 'PUT', body, ...(signal ? { signal } : {}) }));
}

/** `POST /fleet/users/create-installer` (admin); the installer gets an access code by e-mail. @throws ApiError */
export async function createInstaller(api: ApiClient, body: CreateInstallerRequest, signal?: AbortSignal) {
  return userSchema.parse(
    await api('/fleet/users/create-installer', { method: 'POST', body, ...(signal ? { signal } : {}) }),
  );
}

/**
 * `POST /fleet/users/create-owner` (installer or admin): answers the server's message only (202),
 * the same for a new address and one whose account the caller cannot see; the new owner gets an
 * access code and then appears in the caller's lists. @throws ApiError
 */
export async function createOwner(api: ApiClient, body: CreateOwnerRequest, signal?: AbortSignal) {
  return acceptedSchema.parse(
    await api('/fleet/users/create-owner', { method: 'POST', body, ...(signal ? { signal } : {}) }),
  ).message;
}

/** `POST /fleet/users/access-code`: answers the server's message. @throws ApiError */
export async function sendAccessCode(api: ApiClient, mainEmail: string, signal?: AbortSignal) {
  return acceptedSchema.parse(
    await api('/fleet/users/access-code', {
      method: 'POST',
      body: { main_email: mainEmail },
      ...(signal ? { signal } : {}),
    }),
  ).message;
}

/** `PUT /users/installer/add/{userId}/{installerId}`: the installer then sees the user. @throws ApiError */
export async function linkInstaller(
  api: ApiClient,
  userId: number,
  installerId: number,
  signal?: AbortSignal,
) {
  await api(`/users/installer/add/${userId}/${installerId}`, {
    method: 'PUT',
    ...(signal ? { signal } : {}),
  });
}

/** One page of the sites a user is attached to, as far as the caller may see them. @throws ApiError */
export async function fetchUserSites(api: ApiClient, userId: number, page = 0, pageSize = 100) {
  return sitePageSchema.parse(await api(`/fleet/site-list/${userId}/${page}`, { query: { pageSize } }));
}
