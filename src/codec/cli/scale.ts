/** Decimal places of a multiplier (0.1 → 1, 0.001 → 3, 1e-7 → 7), so scaled values print cleanly. */
function decimalsOf(multiplier: number): number {
  const [mantissa = '', exponent = '0'] = multiplier.toExponential().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.min(20, Math.max(0, fraction - Number(exponent)));
}

/** Display value of a raw value: raw × multiplier, without binary floating-point noise. */
export function scaleRaw(raw: number, multiplier: number): number {
  return Number((raw * multiplier).toFixed(decimalsOf(multiplier)));
}

/** Raw value of a display value: divided by the multiplier and rounded to the nearest integer. */
export function unscale(value: number, multiplier: number): number {
  return Math.round(value / multiplier);
}
