import type { SiteMetric } from '../../../contracts/monitoring.ts';
import {
  type ChartData,
  type ChartLine,
  type ChartRange,
  RANGE_MS,
} from '../../../machines/monitoring/chart-range-machine.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { fetchSiteSeries } from '../../api/monitoring-api.ts';

const POWER_ROLES: readonly [SiteMetric, string][] = [
  ['production', 'Production'],
  ['consumption', 'Consumption'],
  ['grid', 'Grid (import +)'],
  ['battery', 'Battery (charging +)'],
];

/**
 * The charts of a site over a range: its power by role (production, consumption, grid, battery:
 * its devices summed, only the roles some device reports) and the energy its devices produced
 * per day. @throws ApiError
 */
export function siteChartsLoader(api: ApiClient, siteId: number) {
  return async (range: ChartRange, now = Date.now()): Promise<ChartData[]> => {
    const span = { from: now - RANGE_MS[range], to: now };
    const [power, energy] = await Promise.all([
      Promise.all(
        POWER_ROLES.map(async ([role, label]) => {
          const series = await fetchSiteSeries(api, siteId, role, span);
          return series.devices > 0
            ? ({ label, unit: series.unit, points: series.points } as ChartLine)
            : null;
        }),
      ),
      fetchSiteSeries(api, siteId, 'producedEnergy', { ...span, step: '1day' }),
    ]);
    const lines = power.filter((line): line is ChartLine => line !== null);
    const charts: ChartData[] = [];
    if (lines.length) charts.push({ key: 'power', title: 'Power', kind: 'line', lines });
    if (energy.devices > 0)
      charts.push({
        key: 'energy',
        title: 'Energy per day',
        kind: 'bars',
        lines: [{ label: 'Produced', unit: energy.unit, points: energy.points }],
      });
    return charts;
  };
}
