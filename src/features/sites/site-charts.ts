import type { SiteMetric } from '../../../contracts/monitoring.ts';
import {
  type ChartData,
  type ChartLine,
  type ChartRange,
  RANGE_MS,
} from '../../../machines/monitoring/chart-range-machine.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { fetchSiteSeries, partialFrom } from '../../api/monitoring-api.ts';
import { ROLE_LOOK } from '../../components/charts/roles.ts';

/** The power roles a site's chart draws, with what their sign means in the legend. */
const POWER_ROLES: readonly [SiteMetric, string][] = [
  ['production', ROLE_LOOK.production.name],
  ['consumption', ROLE_LOOK.consumption.name],
  ['grid', `${ROLE_LOOK.grid.name} (+ importing, − exporting)`],
  ['battery', `${ROLE_LOOK.battery.name} (+ charging, − discharging)`],
];

/** The latest partial step of several series of one chart (they share their steps). */
const latestPartial = (starts: (number | null)[]) =>
  starts.reduce<number | null>(
    (latest, start) => (start === null ? latest : Math.max(latest ?? start, start)),
    null,
  );

/**
 * The charts of a site over a range: its power by role (production, consumption, grid, battery:
 * its devices summed, only the roles some device reports; each role's name and colour as on every
 * screen) and the energy its devices produced per day, the day under way marked as partial.
 * @throws ApiError
 */
export function siteChartsLoader(api: ApiClient, siteId: number) {
  return async (range: ChartRange, now = Date.now()): Promise<ChartData[]> => {
    const span = { from: now - RANGE_MS[range], to: now };
    const [power, energy] = await Promise.all([
      Promise.all(
        POWER_ROLES.map(async ([role, label]) => {
          const series = await fetchSiteSeries(api, siteId, role, span);
          if (series.devices === 0) return null;
          const line: ChartLine = {
            label,
            unit: series.unit,
            colour: ROLE_LOOK[role].colour,
            points: series.points,
          };
          return { line, partial: partialFrom(series) };
        }),
      ),
      fetchSiteSeries(api, siteId, 'producedEnergy', { ...span, step: '1day' }),
    ]);
    const lines = power.filter((entry) => entry !== null);
    const charts: ChartData[] = [];
    if (lines.length)
      charts.push({
        key: 'power',
        title: 'Power',
        kind: 'line',
        lines: lines.map((entry) => entry.line),
        ...span,
        partialFrom: latestPartial(lines.map((entry) => entry.partial)),
      });
    if (energy.devices > 0)
      charts.push({
        key: 'energy',
        title: 'Energy per day',
        kind: 'bars',
        lines: [
          {
            label: `${ROLE_LOOK.producedEnergy.name} per day`,
            unit: energy.unit,
            colour: ROLE_LOOK.producedEnergy.colour,
            points: energy.points,
          },
        ],
        ...span,
        partialFrom: partialFrom(energy),
      });
    return charts;
  };
}
