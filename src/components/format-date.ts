/**
 * The app's one way of writing dates and times, as people read them in their own language: the
 * browser's locale decides the order and the month's name ("Nov 25, 2026" in English, "25. Nov.
 * 2026" in German), and times are 12-hour with AM/PM in every locale (specification §9). Every
 * screen writes dates through these, so a date reads the same on every screen. They take an ISO
 * text, a Date or milliseconds.
 */
type When = string | number | Date;

export interface DateFormats {
  /** @example formatDate('2026-11-25T01:57:27Z') // 'Nov 25, 2026' (in the browser's time zone) */
  formatDate(when: When): string;
  /** @example formatTime(new Date(2026, 10, 25, 13, 5)) // '1:05 PM'; with seconds '1:05:00 PM' */
  formatTime(when: When, options?: { seconds?: boolean }): string;
  /** @example formatDateTime(new Date(2026, 10, 25, 1, 57)) // 'Nov 25, 2026, 1:57 AM' */
  formatDateTime(when: When): string;
}

const asDate = (when: When) => (when instanceof Date ? when : new Date(when));

/** A time that is none (an unreadable text): written as nothing rather than stopping the screen. */
const valid = (format: (date: Date) => string) => (when: When) => {
  const date = asDate(when);
  return Number.isNaN(date.getTime()) ? '' : plain(format(date));
};

/** Newer ICU (Chromium) puts a narrow no-break space before AM/PM; older (Node 20) a space: one form. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

/**
 * The formats of one locale; `undefined` is the browser's own. The app uses the browser's (the
 * functions below); a locale is given only to show what another language reads.
 * @example dateFormats('de-DE').formatDateTime(new Date(2026, 10, 25, 13, 5)) // '25. Nov. 2026, 1:05 PM'
 */
export function dateFormats(locale?: string): DateFormats {
  const date = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' });
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', hour12: true });
  const timeSeconds = new Intl.DateTimeFormat(locale, {
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    hour12: true,
  });
  const formatDate = valid((d) => date.format(d));
  const formatMinutes = valid((d) => time.format(d));
  const formatSeconds = valid((d) => timeSeconds.format(d));
  const formatTime = (when: When, options: { seconds?: boolean } = {}) =>
    options.seconds ? formatSeconds(when) : formatMinutes(when);
  const formatDateTime = (when: When) => {
    const day = formatDate(when);
    return day && `${day}, ${formatMinutes(when)}`;
  };
  return { formatDate, formatTime, formatDateTime };
}

const BROWSER = dateFormats();

/** @example formatDate('2026-11-25T01:57:27Z') // 'Nov 25, 2026' (in the browser's time zone) */
export const formatDate = (when: When): string => BROWSER.formatDate(when);

/** @example formatTime(new Date(2026, 10, 25, 13, 5)) // '1:05 PM'; with seconds '1:05:00 PM' */
export const formatTime = (when: When, options: { seconds?: boolean } = {}): string =>
  BROWSER.formatTime(when, options);

/** @example formatDateTime(new Date(2026, 10, 25, 1, 57)) // 'Nov 25, 2026, 1:57 AM' */
export const formatDateTime = (when: When): string => BROWSER.formatDateTime(when);
