import { fieldRange as codecFieldRange } from '../codec/field-checks.ts';
import type { BufferDescriptor } from '../codec/types.ts';

/** The shape of a field in a frame, as the codec's BufferDescriptor has it. */
export type FieldShape = Pick<BufferDescriptor, 'length' | 'signed'>;

/**
 * The smallest and largest raw integer a field can hold.
 * @example fieldRange({ length: 16, signed: true }) // { min: -32768, max: 32767 }
 */
export function fieldRange(shape: FieldShape): { min: number; max: number } {
  const [min, max] = codecFieldRange({ position: 0, littleEndian: false, ...shape });
  return { min, max };
}

/** Describes a field for messages: `an unsigned 16-bit field (0…65535)`. */
export function describeField(shape: FieldShape): string {
  const { min, max } = fieldRange(shape);
  return `${shape.signed ? 'a signed' : 'an unsigned'} ${shape.length}-bit field (${min}…${max})`;
}
