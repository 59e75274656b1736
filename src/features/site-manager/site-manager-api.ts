import { sitePageSchema } from '../../../contracts/sites.ts';
import { userPageSchema } from '../../../contracts/users.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { LIST_PAGE_SIZE, type ListSearch, listQuery } from '../../components/lists/list-search.ts';

/**
 * Every site (the admin's `sites/all` list), searched by name, address, owner or device serial,
 * sorted by the server; as many rows a page as the Sites list. @throws ApiError
 */
export async function fetchAllSites(
  api: ApiClient,
  adminId: number,
  list: ListSearch,
  pageSize = LIST_PAGE_SIZE,
) {
  return sitePageSchema.parse(
    await api(`/fleet/sites/all/${adminId}/${list.page}`, { query: listQuery(list, pageSize) }),
  );
}

/** Users whose e-mail or name holds `q`, to give one of them access to a site. @throws ApiError */
export async function findUsers(api: ApiClient, adminId: number, q: string, signal?: AbortSignal) {
  return userPageSchema.parse(
    await api(`/fleet/user-list/${adminId}/0`, { query: { q, pageSize: 10 }, ...(signal ? { signal } : {}) }),
  ).items;
}
