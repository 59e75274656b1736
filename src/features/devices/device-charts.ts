import type { MonitoringRole } from '../../../contracts/monitoring-terms.ts';
import {
  type ChartData,
  type ChartLine,
  type ChartRange,
  RANGE_MS,
} from '../../../machines/monitoring/chart-range-machine.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { fetchDeviceSeries, partialFrom } from '../../api/monitoring-api.ts';
import { metricLabel } from '../../components/charts/metric-label.ts';
import { ROLE_LOOK } from '../../components/charts/roles.ts';

/** Which of a device's metrics each chart draws, by the units the service names (from the catalogue). */
export function deviceChartMetrics(units: Record<string, string>) {
  const names = Object.keys(units);
  return {
    power: names.filter((name) => units[name] === 'W').slice(0, 4),
    soc: names.filter((name) => units[name] === '%' && /soc/i.test(name)).slice(0, 2),
    energy: names.filter((name) => units[name] === 'kWh').slice(0, 4),
  };
}

/** What the sign of a power role means, for its legend. */
const SIGN: Partial<Record<MonitoringRole, string>> = {
  grid: ' (+ importing, − exporting)',
  battery: ' (+ charging, − discharging)',
};

/**
 * A metric's words and colour: its role's (the same on every screen) when it plays one, else its
 * own name. An energy counter reads as energy per day ("Charge energy total" → "Charge energy per day").
 */
export function metricLook(name: string, roles: Record<string, MonitoringRole>, perDay = false) {
  const role = roles[name];
  const base = role ? ROLE_LOOK[role].name : metricLabel(name);
  const label = perDay
    ? `${base.replace(/ total$/i, '')} per day`
    : `${base}${role ? (SIGN[role] ?? '') : ''}`;
  return role ? { label, colour: ROLE_LOOK[role].colour } : { label };
}

/**
 * The charts of a device over a range: its power metrics (W), its battery state of charge (%) and
 * its energy counters as energy per day (kWh, daily steps of its site's days, the day under way
 * marked as partial). Charts the device has no metric for are left out. @throws ApiError
 */
export function deviceChartsLoader(
  api: ApiClient,
  serial: string,
  units: Record<string, string>,
  roles: Record<string, MonitoringRole> = {},
) {
  const metrics = deviceChartMetrics(units);
  return async (range: ChartRange, now = Date.now()): Promise<ChartData[]> => {
    const span = { from: now - RANGE_MS[range], to: now };
    const lines = (names: string[], step?: '1day') =>
      Promise.all(
        names.map(async (name) => {
          const series = await fetchDeviceSeries(api, serial, name, step ? { ...span, step } : span);
          const line: ChartLine = {
            ...metricLook(name, roles, step === '1day'),
            unit: series.unit,
            points: series.points,
          };
          return { line, values: series.values, partial: partialFrom(series) };
        }),
      );
    const [power, soc, energy] = await Promise.all([
      lines(metrics.power),
      lines(metrics.soc),
      lines(metrics.energy, '1day'),
    ]);
    const chart = (key: string, title: string, kind: ChartData['kind'], list: typeof power): ChartData => ({
      key,
      title,
      kind,
      lines: list.map((entry) => entry.line),
      ...span,
      partialFrom: list.reduce<number | null>(
        (latest, entry) =>
          entry.partial === null ? latest : Math.max(latest ?? entry.partial, entry.partial),
        null,
      ),
    });
    const charts: ChartData[] = [];
    if (power.length) charts.push(chart('power', 'Power', 'line', power));
    if (soc.length) charts.push(chart('soc', 'Battery state of charge', 'line', soc));
    // Energy per day is what a counter grew by each day (the catalogue's kWh counters); a kWh value
    // that is no counter (today's energy, which the device resets) is left out.
    const counters = energy.filter((entry) => entry.values === 'increase');
    if (counters.length) charts.push(chart('energy', 'Energy per day', 'bars', counters));
    return charts;
  };
}
