import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchDevicesPage } from './devices-api.ts';

/** The page of devices the URL names. @throws ApiError */
export async function loadDevicesList(runtime: AppRuntime, deps: { page: number; q?: string | undefined }) {
  const user = requireCurrentUser(runtime);
  return { user, page: await fetchDevicesPage(runtime.configApi, user.id, deps.page, deps.q) };
}
