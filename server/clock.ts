/**
 * The server's time in milliseconds since the epoch, as `Date.now()` reads it. Rate-limit windows,
 * lockouts, one-time codes' expiry, refresh tokens' expiry and grace window, access tokens' issue
 * and expiry, each user's session cut-off, API keys' creation, expiry and token buckets,
 * invitations' expiry, and when sign-ins, keys and invitations are revoked read it from the
 * server's context (`ctx.now`), never from `Date.now()`, and hand the times they compute to SQL as
 * parameters, never comparing with the database's own `now()`: so a test can set the time they
 * are counted in (`createServer({ now })`). Columns the database fills itself (`DEFAULT now()`)
 * are compared with its own `now()`.
 */
export type Clock = () => number;

/** The real time: every server's clock unless `createServer` is given another. */
export const systemClock: Clock = () => Date.now();

/**
 * Calls `wake` once, when the server's clock reads `at` (milliseconds since the epoch) or later;
 * answers how to call it off. A live stream ends by it when its access token expires (`ctx.alarm`).
 */
export type Alarm = (at: number, wake: () => void) => () => void;

/** The longest delay one Node timer holds (about 24.8 days): a longer one would fire at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * An alarm on `clock` kept by the process's timers: when the time should have come it reads the
 * clock, and waits again while the clock reads earlier (a clock held back, or a time further off
 * than one timer holds).
 * @example timerAlarm(systemClock)(Date.now() + 900_000, end)
 */
export function timerAlarm(clock: Clock): Alarm {
  return (at, wake) => {
    let timer: ReturnType<typeof setTimeout>;
    const look = () => {
      const left = at - clock();
      // A time that is no number (no expiry read) wakes at once rather than never.
      if (!(left > 0)) wake();
      else timer = setTimeout(look, Math.min(left, LONGEST_TIMER_MS));
    };
    timer = setTimeout(look, Math.min(Math.max(0, at - clock()), LONGEST_TIMER_MS));
    return () => clearTimeout(timer);
  };
}
