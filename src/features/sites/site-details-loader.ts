import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchSite } from '../../components/site-access/site-access-api.ts';
import { parseSiteId } from './site-id.ts';
import { fetchInstalls, fetchOwners } from './sites-api.ts';

/** A site, its installs and (for installers and the admin) the owners that may be attached. @throws ApiError */
export async function loadSiteDetails(runtime: AppRuntime, siteid: string) {
  const user = requireCurrentUser(runtime);
  const id = parseSiteId(siteid);
  const api = runtime.configApi;
  const [site, installs, owners] = await Promise.all([
    fetchSite(api, id),
    fetchInstalls(api, id),
    user.role === 'owner' ? Promise.resolve([]) : fetchOwners(api).catch(() => []),
  ]);
  return { user, site, installs, owners };
}
