import { windowStartAt } from '../../server/auth/rate-limit.ts';
import { pinForTest, type TestClock } from './test-clock.ts';

/**
 * Rate limits count in fixed windows read from the server's clock (`server/auth/rate-limit.ts`).
 * A test that sends a limit's worth of calls and expects the next one refused holds the clock at
 * the start of a window none of the earlier calls were counted in, so that every call of the test
 * counts in that one window, however long the test takes; the clock reads the real time again
 * when the test ends. Answers the window's start (ms), from which `clock.advance` moves past it.
 * The default, an hour, starts a window of every length the server counts in (each divides an
 * hour, and windows start at whole multiples of their length). Access tokens are checked on the
 * same clock, and the window may start up to its length ahead of the time they were signed at: a
 * test signs in after pinning (a 15-minute token signed before an hour's pin has run out).
 */
export function pinInFreshWindow(clock: TestClock, windowSeconds = 3600): number {
  return pinForTest(clock, windowStartAt(clock.furthest(), windowSeconds).getTime() + windowSeconds * 1000);
}
