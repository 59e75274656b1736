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

/** A point's time on the chart's clock (the site's zone): the date for daily bars, else date and time. */
export function pointTime(ms: number, kind: ChartData['kind'], timeZone?: string): string {
  return kind === 'bars' ? formatDate(ms, { timeZone }) : formatDateTime(ms, { timeZone });
}

/** Whether a point is the last, partial step's: "so far". */
const soFar = (chart: ChartData, at: number) => chart.partialFrom !== null && at >= chart.partialFrom;

/**
 * One line in words: its minimum, its maximum and when (the peak of the day's sun, the biggest
 * day), and its latest value with when ("so far" if its step is under way).
 */
export function lineSummary(line: ChartLine, chart: ChartData, timeZone?: string): string {
  if (line.points.length === 0) return `${line.label}: no data in this range.`;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let maxAt = 0;
  for (const [at, value] of line.points) {
    if (value < min) min = value;
    if (value > max) {
      max = value;
      maxAt = at;
    }
  }
  const [at, latest] = line.points.at(-1) as readonly [number, number];
  const when = (ms: number) => `${pointTime(ms, chart.kind, timeZone)}${soFar(chart, ms) ? ', so far' : ''}`;
  return `${line.label}: minimum ${valueText(min, line.unit)}, maximum ${valueText(max, line.unit)} (${when(maxAt)}), latest ${valueText(latest, line.unit)} (${when(at)}).`;
}

/**
 * When the data begins well after the range asked for (a device installed since): the date it
 * begins, else null. "Well after": more than a fiftieth of the range.
 */
export function dataBeginsLate(chart: ChartData): number | null {
  const firsts = chart.lines.flatMap((line) => (line.points[0] ? [line.points[0][0]] : []));
  if (firsts.length === 0) return null;
  const first = Math.min(...firsts);
  return first - chart.from > (chart.to - chart.from) / 50 ? first : null;
}

/** The text alternative of a chart: its range, then each line's minimum, maximum and latest. */
export function chartSummary(chart: ChartData, range: ChartRange, timeZone?: string): string {
  return [`${RANGE_LABEL[range]}.`, ...chart.lines.map((line) => lineSummary(line, chart, timeZone))].join(
    ' ',
  );
}
