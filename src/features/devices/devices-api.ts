import { devicePageSchema } from '../../../contracts/devices.ts';
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
