import { onTestFinished } from 'vitest';
import type { Clock } from '../../server/clock.ts';

/**
 * A server's clock (`createServer({ now })`) that a test can hold still and move: it reads the
 * real time until `pin`, and again after `release`.
 */
export interface TestClock {
  now: Clock;
  /** Hold the time at `at` (milliseconds since the epoch) until it is moved or released. */
  pin(at: number): void;
  /** Move the held time on by `ms`; the clock must be pinned. */
  advance(ms: number): void;
  /** Read the real time again. */
  release(): void;
  /** The furthest time the clock has been at: the real time, or later if it was pinned ahead. */
  furthest(): number;
}

export function testClock(): TestClock {
  let pinned: number | null = null;
  let furthestPinned = 0;
  const hold = (at: number) => {
    pinned = at;
    furthestPinned = Math.max(furthestPinned, at);
  };
  return {
    now: () => pinned ?? Date.now(),
    pin: hold,
    advance(ms) {
      if (pinned === null) throw new Error('advance: the clock is not pinned');
      hold(pinned + ms);
    },
    release() {
      pinned = null;
    },
    furthest: () => Math.max(Date.now(), furthestPinned),
  };
}

/**
 * Hold the clock at `at` (default: the time it reads now) for the rest of the running test; it
 * reads the real time again when the test ends, however it ends.
 */
export function pinForTest(clock: TestClock, at = clock.now()): number {
  clock.pin(at);
  onTestFinished(() => clock.release());
  return at;
}
