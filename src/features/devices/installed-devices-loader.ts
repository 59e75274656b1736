import { fetchDeviceStatuses } from '../../api/monitoring-api.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { LIST_PAGE_SIZE } from '../../components/lists/list-search.ts';
import { fetchDevicesPage } from './devices-api.ts';
import type { InstalledDevicesSearch } from './installed-devices-search.ts';

/**
 * The page of devices the URL names: with `state`, the devices in that state from the monitoring
 * service (what Home counts); otherwise the devices list, searched and sorted. @throws ApiError
 */
export async function loadInstalledDevices(runtime: AppRuntime, deps: InstalledDevicesSearch) {
  const user = requireCurrentUser(runtime);
  if (deps.state) {
    const statuses = await fetchDeviceStatuses(
      runtime.monitoringApi,
      { state: deps.state, siteId: deps.siteId },
      deps.page,
      LIST_PAGE_SIZE,
    );
    return { user, page: null, statuses };
  }
  return { user, page: await fetchDevicesPage(runtime.configApi, user.id, deps), statuses: null };
}
