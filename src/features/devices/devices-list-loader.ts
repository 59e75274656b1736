import { fetchDeviceStatuses } from '../../api/monitoring-api.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { DEVICES_PAGE_SIZE, fetchDevicesPage } from './devices-api.ts';
import type { DevicesListSearch } from './devices-list-search.ts';

/**
 * The page of devices the URL names: with `state`, the devices in that state from the monitoring
 * service (what Home counts); otherwise the devices list, searched. @throws ApiError
 */
export async function loadDevicesList(runtime: AppRuntime, deps: Omit<DevicesListSearch, 'sort'>) {
  const user = requireCurrentUser(runtime);
  if (deps.state) {
    const statuses = await fetchDeviceStatuses(
      runtime.monitoringApi,
      { state: deps.state, siteId: deps.siteId },
      deps.page,
      DEVICES_PAGE_SIZE,
    );
    return { user, page: null, statuses };
  }
  return {
    user,
    page: await fetchDevicesPage(runtime.configApi, user.id, deps.page, deps.q),
    statuses: null,
  };
}
