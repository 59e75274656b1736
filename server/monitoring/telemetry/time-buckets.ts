/** Milliseconds of one 5-minute rollup step and of an hour. */
export const FIVE_MINUTES_MS = 300_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * The start of the 5-minute step holding `ms`. Every time zone's offset is a whole number of
 * quarter hours, so these steps start on the five minutes in any zone.
 * @example bucket5m(Date.parse('2026-03-04T13:07:12Z')) // Date.parse('2026-03-04T13:05:00Z')
 */
export function bucket5m(ms: number): number {
  return Math.floor(ms / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
}

/**
 * The UTC date of an instant, `YYYY-MM-DD`: the day the service's own counts are kept by
 * (`telemetry_counts`), which belong to no site.
 */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const clocks = new Map<string, DayClock>();

const two = (n: number) => String(n).padStart(2, '0');

/**
 * The day clock of a zone, made once per zone (a site's zone, for its series and "today").
 * @example dayClock('America/Chicago').startOf('2026-03-08')
 */
export function dayClock(zone: string): DayClock {
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new DayClock(zone);
    clocks.set(zone, clock);
  }
  return clock;
}

/**
 * Days in one IANA time zone (a site's): the calendar day of an instant, and the instant a day
 * starts (23 or 25 hours apart across a daylight-saving change). Answers are kept per quarter
 * hour, so repeated questions format a date four times an hour.
 * @example new DayClock('America/Chicago').dayOf(Date.parse('2026-03-04T03:00:00Z')) // '2026-03-03'
 */
export class DayClock {
  private readonly format: Intl.DateTimeFormat;
  private readonly byQuarter = new Map<number, string>();

  constructor(readonly zone: string) {
    this.format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
  }

  /** `YYYY-MM-DD` of the instant in this zone. */
  dayOf(ms: number): string {
    // Offsets are whole quarter hours: every instant of a quarter hour shares a day.
    const quarter = Math.floor(ms / 900_000);
    const known = this.byQuarter.get(quarter);
    if (known) return known;
    const { year, month, day } = this.parts(ms);
    const text = `${year}-${month}-${day}`;
    if (this.byQuarter.size > 10_000) this.byQuarter.clear();
    this.byQuarter.set(quarter, text);
    return text;
  }

  /** The instant `day` (`YYYY-MM-DD`) begins in this zone. */
  startOf(day: string): number {
    const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
    const midnightUtc = Date.UTC(y, m - 1, d);
    // Local midnight is UTC midnight minus the offset; the offset of a guess is near enough to
    // find the right one in two rounds, even across a daylight-saving change.
    let guess = midnightUtc - this.offsetAt(midnightUtc);
    guess = midnightUtc - this.offsetAt(guess);
    return guess;
  }

  /**
   * The instant on this zone's clock, ISO 8601 to the second with the zone's offset then.
   * @example new DayClock('America/Chicago').localTime(Date.parse('2026-03-04T13:05:00Z')) // '2026-03-04T07:05:00-06:00'
   */
  localTime(ms: number): string {
    const p = this.parts(ms);
    const minutes = Math.round(this.offsetAt(ms) / 60_000);
    const size = Math.abs(minutes);
    const offset = `${minutes < 0 ? '-' : '+'}${two(Math.floor(size / 60))}:${two(size % 60)}`;
    return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${offset}`;
  }

  /** The day after `day`. */
  static next(day: string): string {
    const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
    return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  }

  private offsetAt(ms: number): number {
    const p = this.parts(ms);
    const asUtc = Date.UTC(
      Number(p.year),
      Number(p.month) - 1,
      Number(p.day),
      Number(p.hour),
      Number(p.minute),
      Number(p.second),
    );
    return asUtc - Math.floor(ms / 1000) * 1000;
  }

  private parts(ms: number): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
    const parts = Object.fromEntries(this.format.formatToParts(ms).map((part) => [part.type, part.value]));
    return {
      year: parts.year ?? '1970',
      month: parts.month ?? '01',
      day: parts.day ?? '01',
      hour: parts.hour ?? '00',
      minute: parts.minute ?? '00',
      second: parts.second ?? '00',
    };
  }
}
