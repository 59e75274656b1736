import { mayCreateSites, mayEditSite } from '../../../contracts/access-policy.ts';
import { ApiError } from '../../api/api-error.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchSite, grantOn } from '../../components/site-access/site-access-api.ts';
import { parseSiteId } from './site-id.ts';
import { fetchOwners } from './sites-api.ts';

/** Create site: owners the person may attach. Owners cannot create sites (the server says so too). @throws ApiError */
export async function loadCreateSite(runtime: AppRuntime) {
  const user = requireCurrentUser(runtime);
  if (!mayCreateSites(user)) {
    throw new ApiError('Owners cannot create sites', { status: 403, code: 'role_forbidden', path: '/sites' });
  }
  return { owners: await fetchOwners(runtime.configApi).catch(() => []) };
}

/** Edit site address: the site, if the person may edit it. @throws ApiError */
export async function loadEditSiteAddress(runtime: AppRuntime, siteid: string) {
  const user = requireCurrentUser(runtime);
  const site = await fetchSite(runtime.configApi, parseSiteId(siteid));
  if (!mayEditSite(user, grantOn(site, user.id))) {
    throw new ApiError('You may view this site but not change its address', {
      status: 403,
      code: 'site_role_forbidden',
      path: `/sites/${site.id}`,
    });
  }
  return { site };
}
