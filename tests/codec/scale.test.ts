import { describe, expect, it } from 'vitest';
import { multiplierDecimals, scaleRaw, unscale } from '../../src/codec/scale.ts';

describe('scaling by a multiplier', () => {
  it('shows raw × multiplier without floating-point noise', () => {
    expect(scaleRaw(123, 0.1)).toBe(12.3);
    expect(scaleRaw(123456, 0.01)).toBe(1234.56);
    expect(scaleRaw(-55, 0.1)).toBe(-5.5);
    expect(scaleRaw(7, 10)).toBe(70);
    expect(multiplierDecimals(2.5e-7)).toBe(8);
  });

  it('keeps tiny multipliers instead of failing on more than 100 decimals or rounding them to 0', () => {
    expect(scaleRaw(5, 1e-150)).toBe(5e-150);
    expect(scaleRaw(3, 1e-30)).toBe(3e-30);
  });

  it('writes back the display value divided by the multiplier, rounded to the nearest integer', () => {
    expect(unscale(51.24, 0.1)).toBe(512);
    expect(unscale(51.25, 0.1)).toBe(513);
    expect(unscale(-5.5, 0.1)).toBe(-55);
  });
});
