import { devicePageSchema } from '../../../contracts/devices.ts';
import { sitePageSchema } from '../../../contracts/sites.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { LIST_PAGE_SIZE, type ListSearch, listQuery } from '../../components/lists/list-search.ts';

/**
 * One page of the devices at every site `userId` sees (`GET /fleet/devices/all/{userId}?page=`),
 * searched by serial, device name or site name, sorted by the server.
 *
 * @throws ApiError when the call fails
 */
export async function fetchDevicesPage(
  api: ApiClient,
  userId: number,
  list: ListSearch,
  pageSize = LIST_PAGE_SIZE,
) {
  return devicePageSchema.parse(
    await api(`/fleet/devices/all/${userId}`, { query: { page: list.page, ...listQuery(list, pageSize) } }),
  );
}

/**
 * Devices of one model (`GET /install/device/{modelId}`), or with `serial` the one device: a
 * serial that is not visible answers 404.
 *
 * @throws ApiError when the call fails
 */
export async function fetchInstall(api: ApiClient, modelId: string, serial?: string) {
  return devicePageSchema.parse(
    await api(`/install/device/${encodeURIComponent(modelId)}`, {
      query: { pageSize: 100, ...(serial ? { serial } : {}) },
    }),
  );
}

/**
 * The sites a device can move to: the first hundred sites `userId` sees, without the device's own.
 *
 * @throws ApiError when the call fails
 */
export async function fetchMoveTargets(
  api: ApiClient,
  userId: number,
  fromSiteId: number,
  signal?: AbortSignal,
) {
  const page = sitePageSchema.parse(
    await api(`/fleet/sites/all/${userId}/0`, { query: { pageSize: 100 }, ...(signal ? { signal } : {}) }),
  );
  return page.items.filter((site) => site.id !== fromSiteId);
}
