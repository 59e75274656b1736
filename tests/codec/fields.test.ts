import { describe, expect, it } from 'vitest';
import type { BufferDescriptor } from '../../src/codec/types.ts';
import { hex, implementations, outcome } from './implementations.ts';

const field = (position: number, length: number, signed = false, littleEndian = false): BufferDescriptor =>
  ({ position, length, signed, littleEndian }) as BufferDescriptor;

describe.each(await implementations())('fields (%s)', (_name, codec) => {
  it('reads big- and little-endian, signed and unsigned values from known bytes', () => {
    const frame = new Uint8Array(255);
    frame.set([0xff, 0xfe, 0x12, 0x34, 0x56, 0x78], 1);
    expect(codec.readField(frame, field(1, 8))).toBe(255);
    expect(codec.readField(frame, field(1, 8, true))).toBe(-1);
    expect(codec.readField(frame, field(1, 16, true))).toBe(-2);
    expect(codec.readField(frame, field(1, 16, false, true))).toBe(0xfeff);
    expect(codec.readField(frame, field(3, 32))).toBe(0x12345678);
    expect(codec.readField(frame, field(3, 32, false, true))).toBe(0x78563412);
    expect(codec.readField(frame, field(1, 32))).toBe(0xfffe1234);
    expect(codec.readField(frame, field(1, 32, true))).toBe(-126412);
  });

  it('writes a value in place, touching only its own bytes', () => {
    const view = new Uint8Array(8).fill(0xaa);
    codec.writeField(view, field(2, 16, true, true), -2);
    expect(hex(view)).toBe('aaaafeffaaaaaaaa');
  });

  it('names a field that runs past the 254-byte view', () => {
    expect(outcome(() => codec.readField(new Uint8Array(255), field(253, 16)))).toEqual({
      code: 'position-out-of-range',
      message: 'field at position 253 with 16 bits runs past the 254-byte view',
    });
    expect(outcome(() => codec.readField(new Uint8Array(255), field(-1, 8)))).toMatchObject({
      code: 'position-out-of-range',
    });
  });

  it('names a width that is not 8, 16 or 32', () => {
    expect(outcome(() => codec.readField(new Uint8Array(255), field(4, 12)))).toEqual({
      code: 'invalid-width',
      message: 'field at position 4 has width 12; expected 8, 16 or 32 bits',
    });
  });

  it.each([
    [field(0, 8), 256],
    [field(0, 8, true), -129],
    [field(0, 16), -1],
    [field(0, 32, true), 2 ** 31],
    [field(0, 32), 1.5],
    [field(0, 16), Number.NaN],
  ])('refuses a value that does not fit, never wrapping it (%o, %s)', (d, value) => {
    const view = new Uint8Array(8);
    expect(outcome(() => codec.writeField(view, d, value))).toMatchObject({ code: 'value-out-of-range' });
    expect(view.every((b) => b === 0)).toBe(true);
  });

  it('decodes a whole table in one call, in table order', () => {
    const frame = codec.buildFrame(1, 255, new Uint8Array([1, 2, 3, 4]));
    expect(codec.decodeFields(frame, [field(0, 8), field(1, 16), field(3, 16, false, true)])).toEqual([
      1, 0x0102, 0x0403,
    ]);
  });

  it('writes nothing when any value of a table is bad', () => {
    const frame = codec.buildFrame(1, 255);
    const before = hex(frame);
    const result = outcome(() => codec.encodeFields(frame, [field(1, 8), field(2, 8)], [5, 300]));
    expect(result).toEqual({
      code: 'value-out-of-range',
      message: 'value 300 does not fit the unsigned 8-bit field at position 2 (0 to 255)',
    });
    expect(hex(frame)).toBe(before);
  });

  it('refuses a table whose values do not match its fields one for one', () => {
    const frame = new Uint8Array(255);
    expect(outcome(() => codec.encodeFields(frame, [field(1, 8)], [1, 2]))).toEqual({
      code: 'value-out-of-range',
      message: '2 values given for 1 fields',
    });
  });
});
