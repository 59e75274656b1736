/**
 * The app's one way of writing dates and times, as people read them: a short month name, and
 * 12-hour times with AM/PM (specification §9). Every screen writes dates through these, so a
 * date reads the same on every screen. They take an ISO text, a Date or milliseconds.
 */
type When = string | number | Date;

const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const TIME = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true });
const TIME_SECONDS = new Intl.DateTimeFormat('en-US', {
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
  hour12: true,
});

const asDate = (when: When) => (when instanceof Date ? when : new Date(when));

/** Newer ICU (Chromium) puts a narrow no-break space before AM/PM; older (Node 20) a space: one form. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

/** @example formatDate('2026-11-25T01:57:27Z') // 'Nov 25, 2026' (in the browser's time zone) */
export const formatDate = (when: When): string => plain(DATE.format(asDate(when)));

/** @example formatTime(new Date(2026, 10, 25, 13, 5)) // '1:05 PM'; with seconds '1:05:00 PM' */
export const formatTime = (when: When, options: { seconds?: boolean } = {}): string =>
  plain((options.seconds ? TIME_SECONDS : TIME).format(asDate(when)));

/** @example formatDateTime(new Date(2026, 10, 25, 1, 57)) // 'Nov 25, 2026, 1:57 AM' */
export const formatDateTime = (when: When): string => `${formatDate(when)}, ${formatTime(when)}`;
