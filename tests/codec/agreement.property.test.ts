import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import { referenceCodec as ref } from '../../src/codec/reference-codec.ts';
import type { BufferDescriptor } from '../../src/codec/types.ts';
import { descriptor, frame, value } from './arbitraries.ts';
import { outcome } from './implementations.ts';

const wasm = await loadCodec();

describe('the Wasm module and the reference agree byte for byte', () => {
  it('on the CRC of any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        expect(wasm.crc16(bytes)).toBe(ref.crc16(bytes));
      }),
    );
  });

  it('on decoding any descriptor table over any frame, errors included', () => {
    fc.assert(
      fc.property(frame, fc.array(descriptor, { maxLength: 80 }), (f, ds) => {
        expect(outcome(() => wasm.decodeFields(f, ds))).toEqual(outcome(() => ref.decodeFields(f, ds)));
      }),
    );
  });

  it('on encoding any table of values into any frame, errors and untouched bytes included', () => {
    const table = fc.array(fc.tuple(descriptor, value), { maxLength: 40 });
    fc.assert(
      fc.property(frame, table, (f, pairs) => {
        const ds = pairs.map(([d]) => d);
        const vs = pairs.map(([, v]) => v);
        const a = f.slice();
        const b = f.slice();
        expect(outcome(() => wasm.encodeFields(a, ds, vs))).toEqual(
          outcome(() => ref.encodeFields(b, ds, vs)),
        );
        expect(a).toEqual(b);
      }),
    );
  });

  it('on reading and writing one field in views of any length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), descriptor, value, (view, d, v) => {
        expect(outcome(() => wasm.readField(view, d))).toEqual(outcome(() => ref.readField(view, d)));
        const a = view.slice();
        const b = view.slice();
        expect(outcome(() => wasm.writeField(a, d, v))).toEqual(outcome(() => ref.writeField(b, d, v)));
        expect(a).toEqual(b);
      }),
    );
  });

  it('on building, sealing and verifying frames', () => {
    const opcode = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: -3, max: 300 }));
    const size = fc.oneof(fc.integer({ min: 3, max: 300 }), fc.integer({ min: -1, max: 5 }));
    fc.assert(
      fc.property(opcode, size, fc.uint8Array({ maxLength: 300 }), (op, n, payload) => {
        const built = outcome(() => wasm.buildFrame(op, n, payload));
        expect(built).toEqual(outcome(() => ref.buildFrame(op, n, payload)));
        const sealedA = payload.slice();
        const sealedB = payload.slice();
        expect(outcome(() => wasm.sealFrame(sealedA))).toEqual(outcome(() => ref.sealFrame(sealedB)));
        expect(sealedA).toEqual(sealedB);
        expect(outcome(() => wasm.verifyFrame(payload, n))).toEqual(
          outcome(() => ref.verifyFrame(payload, n)),
        );
      }),
    );
  });

  it('on password codes, errors included', () => {
    const password = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }));
    fc.assert(
      fc.property(password, (p) => {
        expect(outcome(() => wasm.passwordCodes(p))).toEqual(outcome(() => ref.passwordCodes(p)));
      }),
    );
  });

  it('on tables longer than one Wasm batch, writing nothing when the last field is bad', () => {
    const ds: BufferDescriptor[] = Array.from({ length: 2500 }, (_, i) => ({
      position: i % 254,
      length: 8,
      signed: false,
      littleEndian: true,
    }));
    const f = new Uint8Array(255).map((_, i) => i);
    expect(wasm.decodeFields(f, ds)).toEqual(ref.decodeFields(f, ds));
    const vs = ds.map(() => 9);
    vs[2499] = 256;
    const a = f.slice();
    expect(outcome(() => wasm.encodeFields(a, ds, vs))).toEqual(
      outcome(() => ref.encodeFields(f.slice(), ds, vs)),
    );
    expect(a).toEqual(f);
  });

  it('on sealing and verifying a frame larger than the Wasm I/O region', () => {
    const big = new Uint8Array(150_000).map((_, i) => (i * 13) & 0xff);
    const a = big.slice();
    wasm.sealFrame(a);
    ref.sealFrame(big);
    expect(a).toEqual(big);
    expect(() => wasm.verifyFrame(a, 150_000)).not.toThrow();
    a[70_000] = (a[70_000] as number) ^ 1;
    expect(outcome(() => wasm.verifyFrame(a))).toEqual(outcome(() => ref.verifyFrame(a)));
    expect(outcome(() => wasm.verifyFrame(a))).toMatchObject({ code: 'crc-mismatch' });
  });
});
