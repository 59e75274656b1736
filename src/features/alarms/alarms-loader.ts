import { sitePageSchema } from '../../../contracts/sites.ts';
import { fetchAlarmsPage } from '../../api/monitoring-api.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import type { AlarmsSearch } from './alarms-search.ts';

/** Rows per page of the alarms list. */
export const ALARMS_PAGE_SIZE = 20;

/**
 * The page of alarms the URL names, and the person's sites for the site filter (the first 100 by
 * id; a site past them can still be named in the URL). @throws ApiError
 */
export async function loadAlarms(runtime: AppRuntime, search: AlarmsSearch) {
  const user = requireCurrentUser(runtime);
  const [page, sites] = await Promise.all([
    fetchAlarmsPage(runtime.monitoringApi, search, search.page, ALARMS_PAGE_SIZE),
    runtime
      .configApi(`/fleet/sites/all/${user.id}/0`, { query: { pageSize: 100 } })
      .then((answer) => sitePageSchema.parse(answer).items.map((site) => ({ id: site.id, name: site.name })))
      .catch(() => []),
  ]);
  return { page, sites };
}
