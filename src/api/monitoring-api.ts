import {
  type Alarm,
  type AlarmSeverity,
  type AlarmStateFilter,
  alarmPageSchema,
  alarmSchema,
  type DeviceState,
  deviceStatusPageSchema,
  fleetCountsSchema,
  latestReadingSchema,
  overviewSchema,
  type Series,
  type SeriesStep,
  type SiteMetric,
  seriesSchema,
  siteNowSchema,
  siteSeriesSchema,
} from '../../contracts/monitoring.ts';
import type { ApiClient } from './api-client.ts';

/**
 * The monitoring service's calls the screens make (docs/api.md, "Monitoring calls"), each answer
 * checked against its contract. Shared by Home, the alarms list, device and site details.
 */

/** The fleet now: devices by state, today's energy, the newest open alarms, sites with problems first. */
export async function fetchOverview(api: ApiClient) {
  return overviewSchema.parse(await api('/overview'));
}

/** Devices and alarms by state, at every site the person sees or at one: what the lists count. */
export async function fetchCounts(api: ApiClient, siteId?: number) {
  return fleetCountsSchema.parse(await api('/counts', { query: siteId === undefined ? {} : { siteId } }));
}

/** The filters of the alarms list (none: every alarm the person sees). */
export interface AlarmFilter {
  state?: AlarmStateFilter | undefined;
  siteId?: number | undefined;
  severity?: AlarmSeverity | undefined;
  serial?: string | undefined;
}

/** One page of alarms, newest raised first. @throws ApiError */
export async function fetchAlarmsPage(api: ApiClient, filter: AlarmFilter, page: number, pageSize = 20) {
  const query: Record<string, string | number> = { page, pageSize };
  if (filter.state) query.state = filter.state;
  if (filter.siteId) query.siteId = filter.siteId;
  if (filter.severity) query.severity = filter.severity;
  if (filter.serial) query.serial = filter.serial;
  return alarmPageSchema.parse(await api('/alarms', { query }));
}

/** Acknowledges an active alarm with a note; resolves with the alarm as stored. @throws ApiError */
export async function acknowledgeAlarm(api: ApiClient, id: number, note: string): Promise<Alarm> {
  return alarmSchema.parse(await api(`/alarms/${id}/acknowledge`, { method: 'POST', body: { note } }));
}

/** A page of the person's devices with their state (online, offline, in alarm). @throws ApiError */
export async function fetchDeviceStatuses(
  api: ApiClient,
  filter: { state?: DeviceState | undefined; siteId?: number | undefined },
  page = 0,
  pageSize = 100,
) {
  const query: Record<string, string | number> = { page, pageSize };
  if (filter.state) query.state = filter.state;
  if (filter.siteId) query.siteId = filter.siteId;
  return deviceStatusPageSchema.parse(await api('/devices', { query }));
}

/** A device's newest reading with the units of its metrics. @throws ApiError */
export async function fetchLatest(api: ApiClient, serial: string) {
  return latestReadingSchema.parse(await api(`/devices/${encodeURIComponent(serial)}/latest`));
}

/** A range of a series: ISO times, and the step when the screen needs one (days for energy per day). */
export interface SeriesRange {
  from: number;
  to: number;
  step?: SeriesStep;
}

const rangeQuery = ({ from, to, step }: SeriesRange) => ({
  from: new Date(from).toISOString(),
  to: new Date(to).toISOString(),
  ...(step ? { step } : {}),
});

/** One metric of a device over a range. @throws ApiError */
export async function fetchDeviceSeries(api: ApiClient, serial: string, metric: string, range: SeriesRange) {
  return seriesSchema.parse(
    await api(`/devices/${encodeURIComponent(serial)}/series`, { query: { metric, ...rangeQuery(range) } }),
  );
}

/** A role of a site's devices over a range (summed power, added energy). @throws ApiError */
export async function fetchSiteSeries(
  api: ApiClient,
  siteId: number,
  metric: SiteMetric,
  range: SeriesRange,
) {
  return siteSeriesSchema.parse(
    await api(`/sites/${siteId}/series`, { query: { metric, ...rangeQuery(range) } }),
  );
}

/** A site's power flow now and its energy balance today, in the site's time zone. @throws ApiError */
export async function fetchSiteNow(api: ApiClient, siteId: number) {
  return siteNowSchema.parse(await api(`/sites/${siteId}/now`));
}

/** Where a series' last step starts when it is still under way (today so far), else null. */
export function partialFrom(series: Pick<Series, 'partial' | 'points'>): number | null {
  return series.partial ? (series.points.at(-1)?.[0] ?? null) : null;
}
