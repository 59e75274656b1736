import { type BufferDescriptor, CodecError } from './types.ts';

/**
 * Validation and error messages for fields, shared by the Wasm face and the reference so that both
 * report the same code and the same words for the same bad input.
 */

/** Bytes a field occupies, or 0 when its width is not 8, 16 or 32 bits. */
export function fieldBytes(d: BufferDescriptor): number {
  const w: number = d.length;
  return w === 8 ? 1 : w === 16 ? 2 : w === 32 ? 4 : 0;
}

/** Smallest and largest value a field of this width and signedness holds. */
export function fieldRange(d: BufferDescriptor): [number, number] {
  const bits = d.length;
  return d.signed ? [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1] : [0, 2 ** bits - 1];
}

/** True when `position` is a whole byte offset that, with `bytes` bytes, stays inside `limit`. */
function fitsView(position: number, bytes: number, limit: number): boolean {
  return Number.isInteger(position) && position >= 0 && position + bytes <= limit;
}

export function widthError(d: BufferDescriptor): CodecError {
  return new CodecError(
    'invalid-width',
    `field at position ${d.position} has width ${String(d.length)}; expected 8, 16 or 32 bits`,
  );
}

export function positionError(d: BufferDescriptor, limit: number): CodecError {
  const p = d.position;
  const message =
    Number.isInteger(p) && p >= 0
      ? `field at position ${p} with ${d.length} bits runs past the ${limit}-byte view`
      : `field position ${p} is not a byte offset within the ${limit}-byte view`;
  return new CodecError('position-out-of-range', message);
}

export function valueError(d: BufferDescriptor, value: number): CodecError {
  if (!Number.isInteger(value)) {
    return new CodecError(
      'value-out-of-range',
      `value ${value} for the field at position ${d.position} is not a whole number`,
    );
  }
  const [min, max] = fieldRange(d);
  const kind = d.signed ? 'signed' : 'unsigned';
  return new CodecError(
    'value-out-of-range',
    `value ${value} does not fit the ${kind} ${d.length}-bit field at position ${d.position} (${min} to ${max})`,
  );
}

export function valueCountError(values: number, fields: number): CodecError {
  return new CodecError('value-out-of-range', `${values} values given for ${fields} fields`);
}

/** Throws the field's error when it cannot be read from a view of `limit` bytes; returns its byte count. */
export function checkField(d: BufferDescriptor, limit: number): number {
  const bytes = fieldBytes(d);
  if (bytes === 0) throw widthError(d);
  if (!fitsView(d.position, bytes, limit)) throw positionError(d, limit);
  return bytes;
}

/** Throws 'value-out-of-range' unless `value` is a whole number that fits the field (never wrapped). */
export function checkValue(d: BufferDescriptor, value: number): void {
  const [min, max] = fieldRange(d);
  if (!Number.isInteger(value) || value < min || value > max) throw valueError(d, value);
}
