import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoSiteAt } from '../../src/device-sim/day-curve.ts';

const SIZE = { peakW: 5000, batteryWh: 10_000 };
const local = (day: number, hour: number) => new Date(2026, 2, day, hour).getTime();

describe('the day of a demo installation', () => {
  it('produces nothing at night and most around noon', () => {
    const at = (hour: number) => demoSiteAt('HX5K-24-000133', local(4, hour), SIZE).production;
    expect(at(2)).toBe(0);
    expect(at(23)).toBe(0);
    expect(at(12)).toBeGreaterThan(at(8));
    expect(at(12)).toBeGreaterThan(at(17));
  });

  it('keeps the charge between 20 and 90 % and balances the grid', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 * 86_400_000 }), (offset) => {
        const state = demoSiteAt('BX10-25-004411', Date.UTC(2025, 6, 1) + offset, SIZE);
        expect(state.soc).toBeGreaterThanOrEqual(20 - 1e-9);
        expect(state.soc).toBeLessThanOrEqual(90 + 1e-9);
        expect(state.grid).toBeCloseTo(state.consumption + state.battery - state.production, 6);
      }),
    );
  });

  it('counts energy that only grows, by the integral of production', () => {
    const serial = 'E140-24-000200';
    let previous = demoSiteAt(serial, local(10, 0), SIZE);
    let sum = 0;
    // A day in one-minute steps: the counter's increase is the area under the power curve.
    for (let minute = 1; minute <= 24 * 60; minute++) {
      const now = demoSiteAt(serial, local(10, 0) + minute * 60_000, SIZE);
      expect(now.producedKwh).toBeGreaterThanOrEqual(previous.producedKwh);
      expect(now.chargedKwh).toBeGreaterThanOrEqual(previous.chargedKwh);
      sum += ((now.production + previous.production) / 2 / 1000) * (1 / 60);
      previous = now;
    }
    const day = previous.producedKwh - demoSiteAt(serial, local(10, 0), SIZE).producedKwh;
    // The power wobbles ±2 % around the curve the counter integrates.
    expect(Math.abs(day - sum) / day).toBeLessThan(0.03);
  });

  it('answers the same for the same device and moment, whatever was asked before', () => {
    const at = local(20, 15);
    const first = demoSiteAt('HX5K-24-000133', at, SIZE);
    demoSiteAt('HX5K-24-000133', local(1, 1), SIZE);
    expect(demoSiteAt('HX5K-24-000133', at, SIZE)).toEqual(first);
  });
});
