import fc from 'fast-check';
import type { BufferDescriptor } from '../../src/codec/types.ts';

/** Mostly valid descriptors, with bad widths and positions mixed in so that errors are compared too. */
export const descriptor: fc.Arbitrary<BufferDescriptor> = fc.record({
  position: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 253 }) },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: 400 }) },
    { weight: 1, arbitrary: fc.double({ min: -2, max: 300 }) },
  ),
  length: fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(8, 16, 32) },
    { weight: 1, arbitrary: fc.constantFrom(0, 1, 12, 24, 64) },
  ),
  signed: fc.boolean(),
  littleEndian: fc.boolean(),
}) as fc.Arbitrary<BufferDescriptor>;

/** Values around every width's edges, plus a few that are not whole numbers. */
export const value = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }) },
  { weight: 2, arbitrary: fc.integer({ min: -300, max: 70000 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(-(2 ** 31) - 1, 2 ** 32, 127, 128, -129, 65535, 65536, 0.5, Number.NaN),
  },
);

/** Received frames: at least the 254-byte data view. */
export const frame = fc.uint8Array({ minLength: 254, maxLength: 300 });
