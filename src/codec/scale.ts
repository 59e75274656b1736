/**
 * Display value ↔ raw integer by a rawData item's multiplier (DESIGN §6), shared by the engine and
 * the command line so that both show and write the same numbers.
 */

/** Decimal places of a multiplier (0.1 → 1, 0.001 → 3, 2.5e-7 → 8, 10 → 0). */
export function multiplierDecimals(multiplier: number): number {
  const [mantissa = '', exponent = '0'] = multiplier.toExponential().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/** `toFixed` takes at most 100 digits, and past 20 the fixed form no longer helps readability. */
const MAX_FIXED_DECIMALS = 20;

/**
 * Raw integer → display value: raw × multiplier, without binary floating-point noise.
 * @example scaleRaw(123, 0.1) // 12.3, not 12.300000000000001
 */
export function scaleRaw(raw: number, multiplier: number): number {
  const value = raw * multiplier;
  const decimals = multiplierDecimals(multiplier);
  return decimals <= MAX_FIXED_DECIMALS ? Number(value.toFixed(decimals)) : Number(value.toPrecision(15));
}

/**
 * Display value → raw integer: divided by the multiplier and rounded to the nearest integer.
 * @example unscale(51.24, 0.1) // 512
 */
export function unscale(value: number, multiplier: number): number {
  return Math.round(value / multiplier);
}
