import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dateFormats, formatSiteTime } from '../../src/components/format-date.ts';

describe('one date formatter', () => {
  it('writes dates with a month name and times in 12-hour form with AM/PM (specification §9)', () => {
    const { formatDate, formatDateTime, formatTime } = dateFormats('en-US');
    const night = new Date(2026, 10, 25, 1, 57, 27);
    const afternoon = new Date(2026, 10, 25, 13, 5, 0);
    expect(formatDate(night)).toBe('Nov 25, 2026');
    expect(formatDateTime(night)).toBe('Nov 25, 2026, 1:57 AM');
    expect(formatTime(afternoon)).toBe('1:05 PM');
    expect(formatTime(afternoon, { seconds: true })).toBe('1:05:00 PM');
    expect(formatDateTime(night.toISOString())).toBe('Nov 25, 2026, 1:57 AM');
    expect(formatDate(night.getTime())).toBe('Nov 25, 2026');
  });

  it('writes an unreadable time as nothing, never stopping the screen', () => {
    const { formatDate, formatDateTime, formatTime } = dateFormats('en-US');
    expect(formatDate(Number.NaN)).toBe('');
    expect(formatTime('not a date')).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it("writes the date in the reader's language, the time still 12-hour", () => {
    const afternoon = new Date(2026, 10, 25, 13, 5, 0);
    expect(dateFormats('de-DE').formatDateTime(afternoon)).toBe('25. Nov. 2026, 1:05 PM');
    expect(dateFormats('fr-FR').formatDate(afternoon)).toBe('25 nov. 2026');
  });

  it("writes a site's time on the site's clock, naming its zone when the browser's reads otherwise", () => {
    const at = '2026-11-25T19:57:00Z';
    expect(dateFormats('en-US').formatDateTime(at, { timeZone: 'America/Chicago' })).toBe(
      'Nov 25, 2026, 1:57 PM',
    );
    expect(dateFormats('de-DE').formatDate(at, { timeZone: 'Pacific/Auckland' })).toBe('26. Nov. 2026');
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const elsewhere = browserZone === 'Asia/Tokyo' ? 'America/Chicago' : 'Asia/Tokyo';
    expect(formatSiteTime(at, elsewhere)).toMatch(/ (GMT\+9|JST|CST)$/);
    expect(formatSiteTime(at, browserZone)).not.toMatch(/[A-Z]{3}$|GMT/);
    expect(formatSiteTime('not a date', elsewhere)).toBe('');
  });
});

const ROOT = new URL('../..', import.meta.url).pathname;
const sources = (folder: string): string[] =>
  readdirSync(join(ROOT, folder)).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });

/** Ways of writing a date or time on screen other than format-date's. */
const OWN_DATE_FORMAT =
  /toLocaleDateString|toLocaleTimeString|Intl\.DateTimeFormat|dateStyle|timeStyle|new Date\([^)]*\)\.toLocaleString/;

describe('every screen writes dates through format-date', () => {
  it('has no other date formatting in the app', () => {
    const own = [...sources('src'), ...sources('machines')]
      .filter((path) => !path.endsWith('format-date.ts'))
      // Asks whether the engine knows a zone (a check, shared with the server): writes no date.
      .filter((path) => !path.endsWith('time-zones/site-zone.ts'))
      .filter((path) => OWN_DATE_FORMAT.test(readFileSync(join(ROOT, path), 'utf8')))
      .map((path) => relative(ROOT, join(ROOT, path)));
    expect(own).toEqual([]);
  });
});
