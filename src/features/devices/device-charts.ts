import {
  type ChartData,
  type ChartRange,
  RANGE_MS,
} from '../../../machines/monitoring/chart-range-machine.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { fetchDeviceSeries } from '../../api/monitoring-api.ts';
import { metricLabel } from '../../components/charts/metric-label.ts';

/** Which of a device's metrics each chart draws, by the units the service names (from the catalogue). */
export function deviceChartMetrics(units: Record<string, string>) {
  const names = Object.keys(units);
  return {
    power: names.filter((name) => units[name] === 'W').slice(0, 4),
    soc: names.filter((name) => units[name] === '%' && /soc/i.test(name)).slice(0, 2),
    energy: names.filter((name) => units[name] === 'kWh').slice(0, 4),
  };
}

/**
 * The charts of a device over a range: its power metrics (W), its battery state of charge (%) and
 * its energy counters as energy per day (kWh, daily steps). Charts the device has no metric for
 * are left out. @throws ApiError
 */
export function deviceChartsLoader(api: ApiClient, serial: string, units: Record<string, string>) {
  const metrics = deviceChartMetrics(units);
  return async (range: ChartRange, now = Date.now()): Promise<ChartData[]> => {
    const span = { from: now - RANGE_MS[range], to: now };
    const lines = (names: string[], step?: '1day') =>
      Promise.all(
        names.map(async (name) => {
          const series = await fetchDeviceSeries(api, serial, name, step ? { ...span, step } : span);
          return {
            label: metricLabel(name),
            unit: series.unit,
            points: series.points,
            values: series.values,
          };
        }),
      );
    const [power, soc, energy] = await Promise.all([
      lines(metrics.power),
      lines(metrics.soc),
      lines(metrics.energy, '1day'),
    ]);
    const charts: ChartData[] = [];
    const plain = (list: typeof power) => list.map(({ label, unit, points }) => ({ label, unit, points }));
    if (power.length) charts.push({ key: 'power', title: 'Power', kind: 'line', lines: plain(power) });
    if (soc.length)
      charts.push({ key: 'soc', title: 'Battery state of charge', kind: 'line', lines: plain(soc) });
    // Energy per day is what a counter grew by each day (the catalogue's kWh counters); a kWh value
    // that is no counter (today's energy, which the device resets) is left out.
    const counters = energy.filter((line) => line.values === 'increase');
    if (counters.length)
      charts.push({
        key: 'energy',
        title: 'Energy per day',
        kind: 'bars',
        lines: counters.map(({ label, unit, points }) => ({ label, unit, points })),
      });
    return charts;
  };
}
