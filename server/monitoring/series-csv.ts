import type { Context } from 'hono';
import { toCsv } from '../../contracts/csv.ts';
import type { Series } from '../../contracts/monitoring.ts';
import { preferredType } from '../http/accept-type.ts';
import { dayClock } from './telemetry/time-buckets.ts';

/** What a series call answers in: JSON (the default), or CSV for a spreadsheet. */
export const SERIES_TYPES = ['application/json', 'text/csv'] as const;

/** What a series' CSV holds, for the OpenAPI document. */
export const SERIES_CSV_NOTE =
  'With `Accept: text/csv`: one header line, then one line per point: its time in UTC, the same instant on the site\'s clock (ISO 8601 with its offset) and the value, unformatted (`"time (UTC)","time (Europe/Berlin)","pvPower (W)"`)';

/**
 * A series as CSV: one line per point, with its instant in UTC and on the site's clock (both ISO
 * 8601; a day's point stands at the site's midnight) and its value as a plain number. The headers
 * name the zone, the metric and its unit.
 * @example seriesCsv({ metric: 'pvPower', unit: 'W', timeZone: 'Europe/Berlin', points: [[Date.parse('2026-03-04T13:05:00Z'), 1520.5]], … })
 * // '"time (UTC)","time (Europe/Berlin)","pvPower (W)"\r\n"2026-03-04T13:05:00.000Z","2026-03-04T14:05:00+01:00",1520.5\r\n'
 */
export function seriesCsv(series: Series): string {
  const clock = dayClock(series.timeZone);
  return toCsv<[number, number]>(series.points, [
    { header: 'time (UTC)', text: ([at]) => new Date(at).toISOString() },
    { header: `time (${series.timeZone})`, text: ([at]) => clock.localTime(at) },
    { header: `${series.metric} (${series.unit})`, text: ([, value]) => value },
  ]);
}

/**
 * The answer to a series call: JSON, or CSV when the `Accept` header prefers it (the route's
 * `answersIn(SERIES_TYPES)` has already refused an `Accept` that allows neither). `fileName`
 * names the CSV for a browser that saves it.
 */
export function answerSeries(c: Context, series: Series, fileName: string): Response {
  if (preferredType(c.req.header('Accept'), SERIES_TYPES) !== 'text/csv') return c.json(series);
  return c.body(seriesCsv(series), 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${fileName}"`,
  });
}
