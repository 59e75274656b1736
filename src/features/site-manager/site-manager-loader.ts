import { ApiError } from '../../api/api-error.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchSite } from '../../components/site-access/site-access-api.ts';
import { fetchAllSites } from './site-manager-api.ts';
import type { SiteManagerSearch } from './site-manager-search.ts';

/**
 * Site Manager: every site, and the open one's access. Company staff only: the server requires
 * the admin role for what this screen changes, so anyone else gets a clear message.
 *
 * @throws ApiError 403 for anyone but the admin
 */
export async function loadSiteManager(runtime: AppRuntime, deps: SiteManagerSearch) {
  const user = requireCurrentUser(runtime);
  if (user.role !== 'admin') {
    throw new ApiError('Site Manager is for company staff.', {
      status: 403,
      code: 'admin_only',
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
