import { mayInstallOnSite } from '../../../contracts/access-policy.ts';
import { serialNumberPattern } from '../../../contracts/catalogue.ts';
import { errorMessage } from '../../../contracts/error-message.ts';
import { ApiError } from '../../api/api-error.ts';
import { fetchAlarmsPage, fetchLatest } from '../../api/monitoring-api.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchSite, grantOn } from '../../components/site-access/site-access-api.ts';
import { fetchInstall } from './devices-api.ts';

/** How many of a device's alarms its details list, newest first. */
export const ALARM_HISTORY = 20;

/**
 * The device `{deviceid}` (its model id) with `serial`, or every visible device of that model;
 * for one device, whether the person may change its place on its site.
 *
 * @throws ApiError 404 for a serial that is malformed or not visible
 */
export async function loadDeviceDetails(runtime: AppRuntime, modelId: string, serial?: string) {
  if (serial && !serialNumberPattern.test(serial)) {
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
  // Its telemetry (units for the tiles and charts) and alarms come from the monitoring service; a
  // failure there leaves the rest of the screen.
  const [site, latest, alarms] = device
    ? await Promise.all([
        fetchSite(runtime.configApi, device.siteId).catch(() => null),
        fetchLatest(runtime.monitoringApi, device.serial).catch(() => null),
        fetchAlarmsPage(runtime.monitoringApi, { serial: device.serial }, 0, ALARM_HISTORY).then(
          (answer) => ({ page: answer, error: null }),
          (error: unknown) => ({ page: null, error: errorMessage(error) }),
        ),
      ])
    : [null, null, null];
  const mayInstall = site ? mayInstallOnSite(user, grantOn(site, user.id)) : false;
  return { modelId, serial: serial ?? null, page, userId: user.id, mayInstall, latest, alarms };
}
