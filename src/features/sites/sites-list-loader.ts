import { mayCreateSites } from '../../../contracts/access-policy.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import type { ListSearch } from '../../components/lists/list-search.ts';
import { fetchSitesPage } from './sites-api.ts';

/** Loads the page of sites the URL names (page, search, sort), for the signed-in user. @throws ApiError */
export async function loadSitesList(runtime: AppRuntime, deps: ListSearch) {
  const user = requireCurrentUser(runtime);
  const page = await fetchSitesPage(runtime.configApi, user.id, deps);
  return { user, page, mayCreateSite: mayCreateSites(user) };
}
