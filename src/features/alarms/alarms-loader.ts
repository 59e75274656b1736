import { sitePageSchema } from '../../../contracts/sites.ts';
import { fetchAlarmsPage } from '../../api/monitoring-api.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import type { AlarmsSearch } from './alarms-search.ts';

/** Rows per page of the alarms list. */
export const ALARMS_PAGE_SIZE = 20;

/** How many of the person's sites the site filter offers (by id; one past them can still be named in the URL). */
export const SITE_FILTER_LIMIT = 500;

/** The person's sites for the site filter, 100 a call; none when the call fails (the filter still works by URL). */
async function filterSites(runtime: AppRuntime, userId: number) {
  const sites: { id: number; name: string }[] = [];
  for (let page = 0; sites.length < SITE_FILTER_LIMIT; page += 1) {
    const answer = sitePageSchema.parse(
      await runtime.configApi(`/fleet/sites/all/${userId}/${page}`, { query: { pageSize: 100 } }),
    );
    sites.push(...answer.items.map((site) => ({ id: site.id, name: site.name })));
    if (answer.items.length === 0 || sites.length >= answer.total) break;
  }
  return sites;
}

/** The page of alarms the URL names, and the person's sites for the site filter. @throws ApiError */
export async function loadAlarms(runtime: AppRuntime, search: AlarmsSearch) {
  const user = requireCurrentUser(runtime);
  const [page, sites] = await Promise.all([
    fetchAlarmsPage(runtime.monitoringApi, search, search.page, ALARMS_PAGE_SIZE),
    filterSites(runtime, user.id).catch(() => []),
  ]);
  return { page, sites };
}
