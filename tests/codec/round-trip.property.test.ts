import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldRange } from '../../src/codec/field-checks.ts';
import type { BufferDescriptor, FieldWidth } from '../../src/codec/types.ts';
import { implementations } from './implementations.ts';

const shapes = [8, 16, 32].flatMap((length) =>
  [false, true].flatMap((signed) =>
    [false, true].map((littleEndian) => ({ length: length as FieldWidth, signed, littleEndian })),
  ),
);

describe.each(await implementations())('decode(encode(x)) = x (%s)', (_name, codec) => {
  it.each(shapes)('for $length-bit fields, signed $signed, little-endian $littleEndian', (shape) => {
    const [min, max] = fieldRange({ position: 0, ...shape });
    const field = fc.record({
      position: fc.integer({ min: 0, max: 254 - shape.length / 8 }),
      value: fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max, 0)),
    });
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 255, maxLength: 255 }), field, (frame, { position, value }) => {
        const d: BufferDescriptor = { position, ...shape };
        codec.encodeFields(frame, [d], [value]);
        expect(codec.decodeFields(frame, [d])).toEqual([value]);
        expect(codec.readField(codec.dataView(frame), d)).toBe(value);
      }),
    );
  });
});
