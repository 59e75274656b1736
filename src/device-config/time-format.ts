/** What a step shows when its input cannot be turned into a result. */
export const NOT_AVAILABLE = 'n/a';

function twelveHour(hours: number, minutes: number): string {
  const hour = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour}:${String(minutes).padStart(2, '0')} ${hours < 12 ? 'am' : 'pm'}`;
}

/**
 * Seconds since midnight → 12-hour time; `n/a` outside one day.
 * @example secondsToTime(46800) // '1:00 pm'
 */
export function secondsToTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0 || seconds >= 86_400) return NOT_AVAILABLE;
  const whole = Math.floor(seconds);
  return twelveHour(Math.floor(whole / 3600), Math.floor((whole % 3600) / 60));
}

/**
 * Minutes since midnight → 12-hour time; `n/a` outside one day.
 * @example minutesToTime(90) // '1:30 am'
 */
export function minutesToTime(minutes: number): string {
  if (!Number.isFinite(minutes) || minutes < 0 || minutes >= 1440) return NOT_AVAILABLE;
  return secondsToTime(Math.floor(minutes) * 60);
}

/**
 * A number of minutes → a duration text; `n/a` when negative.
 * @example minutesToText(125) // '2 h 05 min'
 */
export function minutesToText(minutes: number): string {
  if (!Number.isFinite(minutes) || minutes < 0) return NOT_AVAILABLE;
  const whole = Math.floor(minutes);
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  return hours === 0 ? `${rest} min` : `${hours} h ${String(rest).padStart(2, '0')} min`;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A date-time string `YYYY-MM-DDTHH:MM[:SS]` → its 12-hour time; `n/a` when it is not a real date-time.
 * @example dateTimeToTime('2025-03-04T00:15') // '12:15 am'
 */
export function dateTimeToTime(text: string): string {
  const match = DATE_TIME.exec(text);
  if (!match) return NOT_AVAILABLE;
  const [y, mo, d, h, mi] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const s = match[6] === undefined ? 0 : Number(match[6]);
  const date = new Date(Date.UTC(y, mo - 1, d));
  const realDay = date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
  return realDay && h < 24 && mi < 60 && s < 60 ? twelveHour(h, mi) : NOT_AVAILABLE;
}

/**
 * A Date → the auto-input format `YYYY-MM-DDTHH:MM` in local time.
 * @example formatAutoInput(new Date(2025, 2, 4, 13, 5)) // '2025-03-04T13:05'
 */
export function formatAutoInput(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(date.getFullYear()).padStart(4, '0')}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An auto-input date-time `YYYY-MM-DDTHH:MM[:SS]` as people read it; `n/a` when it is not a real
 * date-time.
 * @example dateTimeText('2026-11-25T02:14') // 'Nov 25, 2026, 2:14 am'
 */
export function dateTimeText(text: string): string {
  if (dateTimeToTime(text) === NOT_AVAILABLE) return NOT_AVAILABLE;
  const [y, mo, d, h, mi] = (DATE_TIME.exec(text) ?? []).slice(1, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return `${MONTHS[mo - 1]} ${d}, ${y}, ${twelveHour(h, mi)}`;
}
