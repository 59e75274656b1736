import type { ChartData, ChartLine, ChartRange } from '../../../machines/monitoring/chart-range-machine.ts';
import { formatDate, formatDateTime } from '../format-date.ts';

export const RANGE_LABEL: Record<ChartRange, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '1y': 'Last year',
};

/** A value with its unit, to the precision a person reads: W whole, kWh and % to one decimal. */
export function valueText(value: number, unit: string): string {
  const digits = unit === 'W' || Math.abs(value) >= 1000 ? 0 : Math.abs(value) >= 100 ? 1 : 2;
  const number = value.toLocaleString(undefined, { maximumFractionDigits: digits });
  return unit === '%' ? `${number} %` : `${number} ${unit}`.trim();
}

/** A point's time: the date for daily bars, the date and time otherwise. */
export function pointTime(ms: number, kind: ChartData['kind']): string {
  return kind === 'bars' ? formatDate(ms) : formatDateTime(ms);
}

/** One line in words: its minimum, maximum and latest value (with when). */
export function lineSummary(line: ChartLine, kind: ChartData['kind']): string {
  if (line.points.length === 0) return `${line.label}: no data in this range.`;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const [, value] of line.points) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  const [at, latest] = line.points.at(-1) as readonly [number, number];
  return `${line.label}: minimum ${valueText(min, line.unit)}, maximum ${valueText(max, line.unit)}, latest ${valueText(latest, line.unit)} (${pointTime(at, kind)}).`;
}

/** The text alternative of a chart: its range, then each line's minimum, maximum and latest. */
export function chartSummary(chart: ChartData, range: ChartRange): string {
  return [`${RANGE_LABEL[range]}.`, ...chart.lines.map((line) => lineSummary(line, chart.kind))].join(' ');
}
