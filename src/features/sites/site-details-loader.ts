import {
  isManager,
  mayEditSite,
  mayHandOverSite,
  mayInstallOnSite,
  mayJoinCompany,
  mayManageSiteAccess,
  seesEverything,
} from '../../../contracts/access-policy.ts';
import { errorMessage } from '../../../contracts/error-message.ts';
import { fetchMyCompany } from '../../api/companies-api.ts';
import { fetchCounts, fetchDeviceStatuses } from '../../api/monitoring-api.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchSite, grantOn } from '../../components/site-access/site-access-api.ts';
import { parseSiteId } from './site-id.ts';
import { fetchInstalls, fetchOwners } from './sites-api.ts';

/**
 * A site, its installs, (for installers and the admin) the owners that may be attached, what the
 * access policy lets the person do on it and, for who manages its access, the members of their
 * company who could be given it. @throws ApiError
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
  // Who of the caller's company may still be given access here (staff and owners belong to none;
  // after a failed read, the people already with access are shown all the same).
  const mine =
    may.manageAccess && mayJoinCompany(user) && !seesEverything(user)
      ? await fetchMyCompany(api).catch(() => null)
      : null;
  const company = mine
    ? {
        name: mine.company.name,
        members: mine.members.filter((m) => !site.access.some((row) => row.userId === m.userId)),
      }
    : null;
  return { user, site, installs, owners, statuses, may, company };
}
