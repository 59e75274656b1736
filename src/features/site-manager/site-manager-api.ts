import { sitePageSchema } from '../../../contracts/sites.ts';
import { userPageSchema } from '../../../contracts/users.ts';
import type { ApiClient } from '../../api/api-client.ts';

export const SITE_MANAGER_PAGE_SIZE = 25;

/** Every site (the admin's `sites/all` list), searched by name, address, owner or device serial. @throws ApiError */
export async function fetchAllSites(
  api: ApiClient,
  adminId: number,
  page: number,
  q?: string,
  pageSize = SITE_MANAGER_PAGE_SIZE,
) {
  return sitePageSchema.parse(
    await api(`/fleet/sites/all/${adminId}/${page}`, { query: { pageSize, ...(q ? { q } : {}) } }),
  );
}

/** Users whose e-mail or name holds `q`, to give one of them access to a site. @throws ApiError */
export async function findUsers(api: ApiClient, adminId: number, q: string, signal?: AbortSignal) {
  return userPageSchema.parse(
    await api(`/fleet/user-list/${adminId}/0`, { query: { q, pageSize: 10 }, ...(signal ? { signal } : {}) }),
  ).items;
}
