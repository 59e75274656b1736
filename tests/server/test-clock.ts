import { onTestFinished } from 'vitest';
import { type Alarm, type Clock, timerAlarm } from '../../server/clock.ts';

/**
 * A server's clock (`createServer({ now, alarm })`) that a test can hold still and move: it reads
 * the real time until `pin`, and again after `release`. What waits on it for a time (`alarm`)
 * wakes as the clock is moved past that time, or as the real time passes it while not pinned.
 */
export interface TestClock {
  now: Clock;
  alarm: Alarm;
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
  const now: Clock = () => pinned ?? Date.now();
  const onTimers = timerAlarm(now);
  /** What waits for a time on this clock, each with the time it waits for. */
  const waiting = new Map<() => void, number>();
  const wakeDue = () => {
    const at = now();
    for (const [wake, due] of [...waiting]) if (due <= at) wake();
  };
  const hold = (at: number) => {
    pinned = at;
    furthestPinned = Math.max(furthestPinned, at);
    wakeDue();
  };
  return {
    now,
    alarm(at, wake) {
      const once = () => {
        if (!waiting.delete(once)) return;
        stopTimer();
        wake();
      };
      waiting.set(once, at);
      const stopTimer = onTimers(at, once);
      return () => {
        waiting.delete(once);
        stopTimer();
      };
    },
    pin: hold,
    advance(ms) {
      if (pinned === null) throw new Error('advance: the clock is not pinned');
      hold(pinned + ms);
    },
    release() {
      pinned = null;
      wakeDue();
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
