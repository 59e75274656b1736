import {
  isManager,
  mayEditSite,
  mayHandOverSite,
  mayInstallOnSite,
  mayManageSiteAccess,
} from '../../../contracts/access-policy.ts';
import { errorMessage } from '../../../contracts/error-message.ts';
import { fetchCounts, fetchDeviceStatuses } from '../../api/monitoring-api.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchSite, grantOn } from '../../components/site-access/site-access-api.ts';
import { parseSiteId } from './site-id.ts';
import { fetchInstalls, fetchOwners } from './sites-api.ts';

/**
 * A site, its installs, (for installers and the admin) the owners that may be attached, and what
 * the access policy lets the person do on it. @throws ApiError
 */
export async function loadSiteDetails(runtime: AppRuntime, siteid: string) {
  const user = requireCurrentUser(runtime);
  const id = parseSiteId(siteid);
  const api = runtime.configApi;
  const [site, installs, owners, statuses] = await Promise.all([
    fetchSite(api, id),
    fetchInstalls(api, id),
    isManager(user) ? fetchOwners(api).catch(() => []) : Promise.resolve([]),
    // Each device's state now and the site's counts, from the monitoring service; a failure there
    // leaves the rest.
    Promise.all([
      fetchDeviceStatuses(runtime.monitoringApi, { siteId: id }),
      fetchCounts(runtime.monitoringApi, id),
    ]).then(
      ([page, counts]) => ({ page, counts, error: null }),
      (error: unknown) => ({ page: null, counts: null, error: errorMessage(error) }),
    ),
  ]);
  const grant = grantOn(site, user.id);
  const may = {
    install: mayInstallOnSite(user, grant),
    edit: mayEditSite(user, grant),
    manageAccess: mayManageSiteAccess(user, grant),
    handOver: mayHandOverSite(user, grant),
  };
  return { user, site, installs, owners, statuses, may };
}
