import { ApiError } from '../../api/api-error.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchSite } from '../../components/site-access/site-access-api.ts';
import { canEditSite } from '../../components/site-access/site-access-table.tsx';
import { parseSiteId } from './site-id.ts';
import { fetchOwners } from './sites-api.ts';

/** Create site: owners the person may attach. Owners cannot create sites (the server says so too). @throws ApiError */
export async function loadCreateSite(runtime: AppRuntime) {
  const user = requireCurrentUser(runtime);
  if (user.role === 'owner') {
    throw new ApiError('Owners cannot create sites', { status: 403, code: 'role_forbidden', path: '/sites' });
  }
  return { owners: await fetchOwners(runtime.configApi).catch(() => []) };
}

/** Edit site address: the site, if the person may edit it. @throws ApiError */
export async function loadEditSiteAddress(runtime: AppRuntime, siteid: string) {
  const user = requireCurrentUser(runtime);
  const site = await fetchSite(runtime.configApi, parseSiteId(siteid));
  if (!canEditSite(site, user)) {
    throw new ApiError('You may view this site but not change its address', {
      status: 403,
      code: 'site_role_forbidden',
      path: `/sites/${site.id}`,
    });
  }
  return { site };
}
