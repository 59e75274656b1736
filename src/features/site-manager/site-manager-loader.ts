import { mayOpenSiteManager } from '../../../contracts/access-policy.ts';
import { ApiError } from '../../api/api-error.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchSite } from '../../components/site-access/site-access-api.ts';
import { fetchAllSites } from './site-manager-api.ts';
import type { SiteManagerSearch } from './site-manager-search.ts';

/**
 * Site Manager: every site, and the open one's access. Company staff only (`mayOpenSiteManager`,
 * the question the menu asks too): staff see every site and manage its access on the server, so
 * anyone else gets a clear message.
 *
 * @throws ApiError 403 for anyone but company staff
 */
export async function loadSiteManager(runtime: AppRuntime, deps: SiteManagerSearch) {
  const user = requireCurrentUser(runtime);
  if (!mayOpenSiteManager(user)) {
    throw new ApiError('Site Manager is for company staff.', {
      status: 403,
      code: 'staff_only',
      path: '/site-manager',
    });
  }
  const api = runtime.configApi;
  const [page, site] = await Promise.all([
    fetchAllSites(api, user.id, deps),
    deps.site ? fetchSite(api, deps.site).catch(() => null) : Promise.resolve(null),
  ]);
  return { user, page, site, missingSite: deps.site && !site ? deps.site : null };
}
