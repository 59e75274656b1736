import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchSitesPage } from './sites-api.ts';

/** Loads the page of sites the URL names, for the signed-in user. @throws ApiError */
export async function loadSitesList(runtime: AppRuntime, deps: { page: number; q?: string | undefined }) {
  const user = requireCurrentUser(runtime);
  const page = await fetchSitesPage(runtime.configApi, user.id, deps.page, deps.q);
  return { user, page };
}
