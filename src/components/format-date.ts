/**
 * The app's one way of writing dates and times, as people read them in their own language: the
 * browser's locale decides the order and the month's name ("Nov 25, 2026" in English, "25. Nov.
 * 2026" in German), and times are 12-hour with AM/PM in every locale (specification §9). Every
 * screen writes dates through these, so a date reads the same on every screen. They take an ISO
 * text, a Date or milliseconds.
 *
 * A person's own screens (lists, audit) write times in the browser's time zone; what happens at a
 * site (its charts, its day, its alarms, its report) is written in the site's zone, named when the
 * browser's clock reads differently (`formatSiteTime`).
 */
type When = string | number | Date;

/** Where a time is read: a site's IANA zone; the browser's when left out. */
export interface InZone {
  timeZone?: string | undefined;
}

export interface DateFormats {
  /** @example formatDate('2026-11-25T01:57:27Z') // 'Nov 25, 2026' (in the browser's time zone) */
  formatDate(when: When, zone?: InZone): string;
  /** @example formatTime(new Date(2026, 10, 25, 13, 5)) // '1:05 PM'; with seconds '1:05:00 PM' */
  formatTime(when: When, options?: { seconds?: boolean } & InZone): string;
  /** @example formatDateTime(new Date(2026, 10, 25, 1, 57)) // 'Nov 25, 2026, 1:57 AM' */
  formatDateTime(when: When, zone?: InZone): string;
}

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', hour12: true };
const TIME_SECONDS: Intl.DateTimeFormatOptions = { ...TIME, second: '2-digit' };

const formats = new Map<string, Intl.DateTimeFormat>();

/** A format of these options in a locale and zone (the browser's when left out), made once. */
function format(locale: string | undefined, options: Intl.DateTimeFormatOptions, timeZone?: string) {
  const key = `${locale ?? ''}@${timeZone ?? ''}@${JSON.stringify(options)}`;
  let known = formats.get(key);
  if (!known) {
    known = new Intl.DateTimeFormat(locale, { ...options, ...(timeZone ? { timeZone } : {}) });
    formats.set(key, known);
  }
  return known;
}

const asDate = (when: When) => (when instanceof Date ? when : new Date(when));
const unreadable = (date: Date) => Number.isNaN(date.getTime());

/** Newer ICU (Chromium) puts a narrow no-break space before AM/PM; older (Node 20) a space: one form. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

/**
 * The formats of one locale; `undefined` is the browser's own. The app uses the browser's (the
 * functions below); a locale is given only to show what another language reads. A time that is
 * none (an unreadable text) is written as nothing rather than stopping the screen.
 * @example dateFormats('de-DE').formatDateTime(new Date(2026, 10, 25, 13, 5)) // '25. Nov. 2026, 1:05 PM'
 */
export function dateFormats(locale?: string): DateFormats {
  const writer = (options: Intl.DateTimeFormatOptions) => (when: When, timeZone?: string) => {
    const date = asDate(when);
    return unreadable(date) ? '' : plain(format(locale, options, timeZone).format(date));
  };
  const date = writer(DATE);
  const minutes = writer(TIME);
  const seconds = writer(TIME_SECONDS);
  return {
    formatDate: (when, zone = {}) => date(when, zone.timeZone),
    formatTime: (when, options = {}) => (options.seconds ? seconds : minutes)(when, options.timeZone),
    formatDateTime: (when, zone = {}) => {
      const day = date(when, zone.timeZone);
      return day && `${day}, ${minutes(when, zone.timeZone)}`;
    },
  };
}

const BROWSER = dateFormats();

/** @example formatDate('2026-11-25T01:57:27Z') // 'Nov 25, 2026' (in the browser's time zone) */
export const formatDate = (when: When, zone: InZone = {}): string => BROWSER.formatDate(when, zone);

/** @example formatTime(new Date(2026, 10, 25, 13, 5)) // '1:05 PM'; with seconds '1:05:00 PM' */
export const formatTime = (when: When, options: { seconds?: boolean } & InZone = {}): string =>
  BROWSER.formatTime(when, options);

/** @example formatDateTime(new Date(2026, 10, 25, 1, 57)) // 'Nov 25, 2026, 1:57 AM' */
export const formatDateTime = (when: When, zone: InZone = {}): string => BROWSER.formatDateTime(when, zone);

/** The zone's name at `when` in one form of Intl's `timeZoneName`; `fallback` if there is none. */
function zonePart(timeZone: string, when: When, form: 'short' | 'shortOffset', fallback: string): string {
  const at = asDate(when);
  if (unreadable(at)) return fallback;
  const part = format('en-US', { timeZoneName: form }, timeZone)
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? fallback;
}

/** The zone's short name at `when`: "CST", "CDT", "GMT+1". */
export const zoneName = (timeZone: string, when: When = Date.now()): string =>
  zonePart(timeZone, when, 'short', timeZone);

/** The zone's offset from UTC at `when`: "GMT-6" (or "GMT" itself). */
export const zoneOffset = (timeZone: string, when: When = Date.now()): string =>
  zonePart(timeZone, when, 'shortOffset', '');

/** Whether the browser's clock reads as `timeZone`'s at `when` (same offset from UTC). */
export function browserReadsAs(timeZone: string, when: When = Date.now()): boolean {
  const at = asDate(when);
  if (unreadable(at)) return true;
  const parts = (zone?: string) =>
    format('en-US', { ...DATE, ...TIME, month: 'numeric' }, zone)
      .formatToParts(at)
      .map((p) => p.value)
      .join('');
  return parts(timeZone) === parts();
}

/**
 * A time at a site, on the site's clock; the zone is named when the browser's clock reads
 * otherwise, so a person far away knows which clock they read.
 * @example formatSiteTime('2026-11-25T19:57:00Z', 'America/Chicago') // 'Nov 25, 2026, 1:57 PM CST' (in Berlin)
 */
export function formatSiteTime(when: When, timeZone: string): string {
  const text = formatDateTime(when, { timeZone });
  return !text || browserReadsAs(timeZone, when) ? text : `${text} ${zoneName(timeZone, when)}`;
}
