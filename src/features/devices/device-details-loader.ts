import { ApiError } from '../../api/api-error.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchSite } from '../../components/site-access/site-access-api.ts';
import { canManageAccess } from '../../components/site-access/site-access-table.tsx';
import { fetchInstall } from './devices-api.ts';

const SERIAL = /^[A-Z0-9]{2,8}-\d{2}-\d{6}$/;

/**
 * The device `{deviceid}` (its model id) with `serial`, or every visible device of that model;
 * for one device, whether the person may change its place on its site.
 *
 * @throws ApiError 404 for a serial that is malformed or not visible
 */
export async function loadDeviceDetails(runtime: AppRuntime, modelId: string, serial?: string) {
  if (serial && !SERIAL.test(serial)) {
    throw new ApiError(`${serial} is not a serial number (they look like HX5K-24-000123)`, {
      status: 404,
      code: 'not_found',
      path: `/install/device/${modelId}`,
    });
  }
  const page = await fetchInstall(runtime.configApi, modelId, serial);
  const user = requireCurrentUser(runtime);
  const device = serial ? page.items[0] : undefined;
  // Whether the person installs on the device's site: then they move, rename, replace and remove it.
  const site = device ? await fetchSite(runtime.configApi, device.siteId).catch(() => null) : null;
  const mayInstall = site ? canManageAccess(site, user) : false;
  return { modelId, serial: serial ?? null, page, userId: user.id, mayInstall };
}
