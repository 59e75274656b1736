import { describe, expect, it } from 'vitest';
import { Pace } from '../../server/service-comms/pace.ts';

describe("a device's pace", () => {
  it('takes a burst of its rate at once, then one per 1/rate of a second', () => {
    const pace = new Pace(20, 0);
    const burst = Array.from({ length: 25 }, () => pace.take(0));
    expect(burst.filter(Boolean)).toHaveLength(20);
    expect(pace.take(49)).toBe(false);
    expect(pace.take(50)).toBe(true);
    expect(pace.take(50)).toBe(false);
    // A second's rest refills the whole burst, and no more.
    expect(Array.from({ length: 25 }, () => pace.take(5_000)).filter(Boolean)).toHaveLength(20);
  });

  it('is not refilled by a clock going back', () => {
    const pace = new Pace(2, 1000);
    expect([pace.take(1000), pace.take(1000), pace.take(1000)]).toEqual([true, true, false]);
    expect(pace.take(0)).toBe(false);
    expect(pace.take(1499)).toBe(false);
    expect(pace.take(1500)).toBe(true);
  });
});
