/**
 * The app's one way of writing dates and times, as people read them: a short month name, and
 * 12-hour times with AM/PM (specification §9). Every screen writes dates through these, so a
 * date reads the same on every screen. They take an ISO text, a Date or milliseconds.
 *
 * A person's own screens (lists, audit) write times in the browser's time zone; what happens at a
 * site (its charts, its day, its alarms, its report) is written in the site's zone, named when the
 * browser's clock reads differently (`formatSiteTime`).
 */
type When = string | number | Date;

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', hour12: true };
const TIME_SECONDS: Intl.DateTimeFormatOptions = { ...TIME, second: '2-digit' };

const formats = new Map<string, Intl.DateTimeFormat>();

/** An en-US format of these options in `timeZone` (the browser's when none), made once. */
function format(options: Intl.DateTimeFormatOptions, timeZone?: string): Intl.DateTimeFormat {
  const key = `${JSON.stringify(options)}@${timeZone ?? ''}`;
  let known = formats.get(key);
  if (!known) {
    known = new Intl.DateTimeFormat('en-US', { ...options, ...(timeZone ? { timeZone } : {}) });
    formats.set(key, known);
  }
  return known;
}

const asDate = (when: When) => (when instanceof Date ? when : new Date(when));

/** Newer ICU (Chromium) puts a narrow no-break space before AM/PM; older (Node 20) a space: one form. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

/** Where a time is read: a site's IANA zone; the browser's when left out. */
export interface InZone {
  timeZone?: string | undefined;
}

/** @example formatDate('2026-11-25T01:57:27Z') // 'Nov 25, 2026' (in the browser's time zone) */
export const formatDate = (when: When, { timeZone }: InZone = {}): string =>
  plain(format(DATE, timeZone).format(asDate(when)));

/** @example formatTime(new Date(2026, 10, 25, 13, 5)) // '1:05 PM'; with seconds '1:05:00 PM' */
export const formatTime = (when: When, options: { seconds?: boolean } & InZone = {}): string =>
  plain(format(options.seconds ? TIME_SECONDS : TIME, options.timeZone).format(asDate(when)));

/** @example formatDateTime(new Date(2026, 10, 25, 1, 57)) // 'Nov 25, 2026, 1:57 AM' */
export const formatDateTime = (when: When, zone: InZone = {}): string =>
  `${formatDate(when, zone)}, ${formatTime(when, zone)}`;

/** The zone's short name at `when`: "CST", "CDT", "GMT+1". */
export function zoneName(timeZone: string, when: When = Date.now()): string {
  const part = format({ timeZoneName: 'short' }, timeZone)
    .formatToParts(asDate(when))
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

/** Whether the browser's clock reads as `timeZone`'s at `when` (same offset from UTC). */
export function browserReadsAs(timeZone: string, when: When = Date.now()): boolean {
  const at = asDate(when);
  const parts = (zone?: string) =>
    format({ ...DATE, ...TIME, month: 'numeric' }, zone)
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
  return browserReadsAs(timeZone, when) ? text : `${text} ${zoneName(timeZone, when)}`;
}
