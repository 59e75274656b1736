import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import type { ListSearch } from '../../components/lists/list-search.ts';
import { fetchDevicesPage } from './devices-api.ts';

/** The page of devices the URL names (page, search, sort). @throws ApiError */
export async function loadDevicesList(runtime: AppRuntime, deps: ListSearch) {
  const user = requireCurrentUser(runtime);
  return { user, page: await fetchDevicesPage(runtime.configApi, user.id, deps) };
}
