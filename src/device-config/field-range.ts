/** The shape of a field in a frame, as the codec's BufferDescriptor has it. */
export interface FieldShape {
  length: 8 | 16 | 32;
  signed: boolean;
}

/** Bytes of the 254-byte data view that raw data may be read from. */
export const VIEW_LENGTH = 254;

/**
 * The smallest and largest raw integer a field can hold.
 * @example fieldRange({ length: 16, signed: true }) // { min: -32768, max: 32767 }
 */
export function fieldRange(shape: FieldShape): { min: number; max: number } {
  const span = 2 ** shape.length;
  return shape.signed ? { min: -span / 2, max: span / 2 - 1 } : { min: 0, max: span - 1 };
}

/** Describes a field for messages: `an unsigned 16-bit field (0…65535)`. */
export function describeField(shape: FieldShape): string {
  const { min, max } = fieldRange(shape);
  return `${shape.signed ? 'a signed' : 'an unsigned'} ${shape.length}-bit field (${min}…${max})`;
}

/** Decimal places of a multiplier, so that `123 × 0.1` shows as `12.3`, not `12.300000000000001`. */
export function multiplierDecimals(multiplier: number): number {
  if (Number.isInteger(multiplier)) return 0;
  const text = multiplier.toExponential();
  const [mantissa = '', exponent = '0'] = text.split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/** Raw integer → display value, rounded to the multiplier's decimals. */
export function scaleRaw(raw: number, multiplier: number): number {
  const decimals = multiplierDecimals(multiplier);
  return Number((raw * multiplier).toFixed(decimals));
}

/** Display value → raw integer: divided by the multiplier and rounded to the nearest integer. */
export function unscaleValue(value: number, multiplier: number): number {
  return Math.round(value / multiplier);
}
