// Types only: this module is in the route tree, which the sign-in screen loads, so it pulls in no zod.
import type { AlarmSeverity, AlarmStateFilter } from '../../../contracts/monitoring.ts';

/** The alarms list's URL state: `?page=0&state=open&siteId=3&severity=critical`. */
export interface AlarmsSearch {
  page: number;
  state?: AlarmStateFilter;
  siteId?: number;
  severity?: AlarmSeverity;
}

const STATES: readonly AlarmStateFilter[] = ['open', 'active', 'acknowledged', 'cleared'];
const SEVERITIES: readonly AlarmSeverity[] = ['info', 'warning', 'critical'];
const MAX_PAGE = 1_000_000;

/**
 * The `validateSearch` of `/alarms`: a bad page becomes 0 and an unknown state, site or severity
 * is dropped, so a hand-edited link still shows a list.
 */
export function alarmsSearch(search: Record<string, unknown>): AlarmsSearch {
  const page = Number(search.page);
  const siteId = Number(search.siteId);
  const result: AlarmsSearch = { page: Number.isInteger(page) && page >= 0 && page <= MAX_PAGE ? page : 0 };
  if (typeof search.state === 'string' && STATES.includes(search.state as AlarmStateFilter))
    result.state = search.state as AlarmStateFilter;
  if (Number.isInteger(siteId) && siteId >= 1 && siteId <= 2_147_483_647) result.siteId = siteId;
  if (typeof search.severity === 'string' && SEVERITIES.includes(search.severity as AlarmSeverity))
    result.severity = search.severity as AlarmSeverity;
  return result;
}
