import { siteHandoverSchema } from '../../../contracts/companies.ts';
import { devicePageSchema } from '../../../contracts/devices.ts';
import { type SitePayloadInput, sitePageSchema, siteSchema } from '../../../contracts/sites.ts';
import { userPageSchema } from '../../../contracts/users.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { LIST_PAGE_SIZE, type ListSearch, listQuery } from '../../components/lists/list-search.ts';

/**
 * One page of every site `userId` sees (`GET /fleet/sites/all/{userId}/{page}`), searched by
 * name, address, owner and the serial of a device at the site, sorted by the server.
 *
 * @throws ApiError when the call fails
 */
export async function fetchSitesPage(
  api: ApiClient,
  userId: number,
  list: ListSearch,
  pageSize = LIST_PAGE_SIZE,
) {
  return sitePageSchema.parse(
    await api(`/fleet/sites/all/${userId}/${list.page}`, { query: listQuery(list, pageSize) }),
  );
}

/** One page of the devices installed at a site (`GET /fleet/sites/installs/{siteId}`). @throws ApiError */
export async function fetchInstalls(api: ApiClient, siteId: number, page = 0, pageSize = 100) {
  return devicePageSchema.parse(await api(`/fleet/sites/installs/${siteId}`, { query: { page, pageSize } }));
}

/** `POST /sites`. @throws ApiError */
export async function createSite(api: ApiClient, payload: SitePayloadInput, signal?: AbortSignal) {
  return siteSchema.parse(
    await api('/sites', { method: 'POST', body: payload, ...(signal ? { signal } : {}) }),
  );
}

/** `PUT /sites/{id}`. @throws ApiError */
export async function updateSite(
  api: ApiClient,
  siteId: number,
  payload: SitePayloadInput,
  signal?: AbortSignal,
) {
  return siteSchema.parse(
    await api(`/sites/${siteId}`, { method: 'PUT', body: payload, ...(signal ? { signal } : {}) }),
  );
}

/** Owners the caller may attach to a site (`GET /users/role/owner`); empty for an owner. @throws ApiError */
export async function fetchOwners(api: ApiClient) {
  return userPageSchema.parse(await api('/users/role/owner', { query: { pageSize: 100 } })).items;
}

/** `POST /sites/{id}/handover`: offer the site to the company of a member's address. @throws ApiError */
export async function offerSite(api: ApiClient, siteId: number, email: string, signal?: AbortSignal) {
  return siteHandoverSchema.parse(
    await api(`/sites/${siteId}/handover`, {
      method: 'POST',
      body: { email },
      ...(signal ? { signal } : {}),
    }),
  );
}
