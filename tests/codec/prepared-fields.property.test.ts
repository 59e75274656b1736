import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import { referenceCodec as ref } from '../../src/codec/reference-codec.ts';
import type { BufferDescriptor, Codec, FieldTable } from '../../src/codec/types.ts';
import { descriptor, frame, value } from './arbitraries.ts';
import { outcome } from './implementations.ts';

const wasm = await loadCodec();
const codecs: [string, Codec][] = [
  ['wasm', wasm],
  ['reference', ref],
];

const valid = fc.record({
  position: fc.integer({ min: 0, max: 250 }),
  length: fc.constantFrom(8, 16, 32),
  signed: fc.boolean(),
  littleEndian: fc.boolean(),
}) as fc.Arbitrary<BufferDescriptor>;

describe('a prepared field table', () => {
  it('is refused with the same error by both codecs, and by an array decode, when a descriptor is bad', () => {
    fc.assert(
      fc.property(frame, fc.array(descriptor, { maxLength: 80 }), (f, ds) => {
        const prepared = outcome(() => wasm.prepareFields(ds));
        expect(outcome(() => ref.prepareFields(ds))).toEqual(prepared);
        if ('code' in prepared) expect(outcome(() => ref.decodeFields(f, ds))).toEqual(prepared);
      }),
    );
  });

  it.each(codecs)('decodes on %s exactly as the descriptor array does on the reference', (_name, codec) => {
    fc.assert(
      fc.property(frame, fc.array(valid, { maxLength: 80 }), (f, ds) => {
        const table = codec.prepareFields(ds);
        expect(codec.decodeFields(f, table)).toEqual(ref.decodeFields(f, ds));
        // Twice in a row: the second call reuses what the first left in place.
        expect(codec.decodeFields(f, table)).toEqual(ref.decodeFields(f, ds));
      }),
    );
  });

  it.each(codecs)(
    'encodes on %s exactly as the descriptor array does, errors and untouched bytes included',
    (_name, codec) => {
      const pairs = fc.array(fc.tuple(valid, value), { maxLength: 40 });
      fc.assert(
        fc.property(frame, pairs, (f, ps) => {
          const ds = ps.map(([d]) => d);
          const vs = ps.map(([, v]) => v);
          const a = f.slice();
          const b = f.slice();
          expect(outcome(() => codec.encodeFields(a, codec.prepareFields(ds), vs))).toEqual(
            outcome(() => ref.encodeFields(b, ds, vs)),
          );
          expect(a).toEqual(b);
        }),
      );
    },
  );

  it('gives the same values when tables, arrays and single fields alternate on one Wasm instance', () => {
    const lists = fc.array(fc.array(valid, { minLength: 1, maxLength: 20 }), { minLength: 2, maxLength: 5 });
    fc.assert(
      fc.property(frame, lists, fc.array(fc.nat(), { minLength: 4, maxLength: 30 }), (f, dss, order) => {
        const tables = dss.map((ds) => wasm.prepareFields(ds));
        for (const pick of order) {
          const k = pick % dss.length;
          const ds = dss[k] as BufferDescriptor[];
          const table = tables[k] as FieldTable;
          // Another list's fields overwrite the Wasm descriptor table between two uses of this one.
          const other = dss[(k + 1) % dss.length] as BufferDescriptor[];
          if (pick % 3 === 0) expect(wasm.decodeFields(f, other)).toEqual(ref.decodeFields(f, other));
          else if (pick % 3 === 1)
            expect(wasm.readField(f, other[0] as BufferDescriptor)).toBe(
              ref.readField(f, other[0] as BufferDescriptor),
            );
          expect(wasm.decodeFields(f, table)).toEqual(ref.decodeFields(f, ds));
        }
      }),
    );
  });

  it('works with a table prepared by the other codec', () => {
    const ds: BufferDescriptor[] = [
      { position: 1, length: 16, signed: true, littleEndian: true },
      { position: 3, length: 32, signed: false, littleEndian: false },
    ];
    const f = new Uint8Array(255).map((_, i) => (i * 37) & 0xff);
    expect(wasm.decodeFields(f, ref.prepareFields(ds))).toEqual(ref.decodeFields(f, wasm.prepareFields(ds)));
  });

  it('spans more fields than one Wasm batch, writing nothing when the last value is bad', () => {
    const ds: BufferDescriptor[] = Array.from({ length: 2500 }, (_, i) => ({
      position: i % 254,
      length: 8,
      signed: false,
      littleEndian: true,
    }));
    const table = wasm.prepareFields(ds);
    const f = new Uint8Array(255).map((_, i) => i);
    expect(wasm.decodeFields(f, table)).toEqual(ref.decodeFields(f, ds));
    const vs = ds.map(() => 9);
    vs[2499] = 256;
    const a = f.slice();
    expect(outcome(() => wasm.encodeFields(a, table, vs))).toMatchObject({ code: 'value-out-of-range' });
    expect(a).toEqual(f);
  });
});

describe.each(codecs)('a prepared field table (%s)', (_name, codec) => {
  it('is frozen, and does not follow later changes to the descriptors it was made from', () => {
    const d: BufferDescriptor = { position: 1, length: 8, signed: false, littleEndian: false };
    const table = codec.prepareFields([d]);
    expect(Object.isFrozen(table)).toBe(true);
    expect(Object.isFrozen(table.descriptors)).toBe(true);
    expect(Object.isFrozen(table.descriptors[0])).toBe(true);
    expect(Object.keys(table).sort()).toEqual(['descriptors', 'length']);
    d.position = 2;
    const f = codec.buildFrame(0x81, 255, new Uint8Array([7, 9]));
    expect(codec.decodeFields(f, table)).toEqual([7]);
    expect(() => {
      (table.descriptors[0] as { position: number }).position = 2;
    }).toThrow(TypeError);
  });

  it('names the first bad descriptor when it is prepared, not when a frame arrives', () => {
    const ds = [
      { position: 1, length: 8, signed: false, littleEndian: false },
      { position: 253, length: 16, signed: false, littleEndian: false },
    ] as BufferDescriptor[];
    expect(outcome(() => codec.prepareFields(ds))).toEqual({
      code: 'position-out-of-range',
      message: 'field at position 253 with 16 bits runs past the 254-byte view',
    });
  });

  it('refuses a value count that does not match the table', () => {
    const table = codec.prepareFields([{ position: 1, length: 8, signed: false, littleEndian: false }]);
    expect(outcome(() => codec.encodeFields(new Uint8Array(255), table, [1, 2]))).toEqual({
      code: 'value-out-of-range',
      message: '2 values given for 1 fields',
    });
  });
});
