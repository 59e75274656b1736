import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeModel } from '../../src/sunspec/compose-model.ts';
import { type DecodedModel, decodeDevice, decodeModel } from '../../src/sunspec/decode-device.ts';
import { DemoSunSpecDevice } from '../../src/sunspec/demo-device.ts';
import { encodeModel } from '../../src/sunspec/encode-model.ts';
import type { GroupDef, PointDef } from '../../src/sunspec/model-schema.ts';
import { bundled, catalogue, chain } from './fixtures.ts';

/** float32 +Infinity and -Infinity as the two registers a device sends. */
const INFINITY_32 = [0x7f80, 0];
const MINUS_INFINITY_32 = [0xff80, 0];

/**
 * Counterexamples fast-check found, kept as fixed cases: model → the point and the registers it
 * held. Model 112's TmpSnk holding float32 +Infinity (seed 1789561423) failed to encode as
 * "too large for its type".
 */
const FOUND: Record<number, { point: string; registers: number[] }[]> = {
  112: [{ point: 'TmpSnk', registers: INFINITY_32 }],
};

const words = (n: number) => fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: n, maxLength: n });

/** Register contents a device can send for a point, in the one form each value encodes back to. */
function registersFor(p: PointDef, size: number): fc.Arbitrary<number[]> {
  switch (p.type) {
    case 'sunssf':
      return fc.oneof(
        fc.integer({ min: -10, max: 10 }).map((v) => [v & 0xffff]),
        fc.constant<number[]>([0x8000]),
      );
    case 'float32':
      return fc.oneof(
        words(2).map(([a = 0, b = 0]) => {
          const nan = (a & 0x7f80) === 0x7f80 && ((a & 0x7f) !== 0 || b !== 0);
          return nan ? [0x7fc0, 0] : [a, b];
        }),
        // A device may report +Infinity or -Infinity: rare among random words, so asked for.
        fc.constantFrom<number[]>(INFINITY_32, MINUS_INFINITY_32),
      );
    case 'float64':
      return words(4).map((w) => {
        const view = new DataView(new ArrayBuffer(8));
        w.forEach((x, i) => {
          view.setUint16(2 * i, x);
        });
        return Number.isNaN(view.getFloat64(0)) ? [0x7ff8, 0, 0, 0] : w;
      });
    case 'string':
      return fc
        .string({
          unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          maxLength: size * 2,
        })
        .map((text) => {
          const bytes = [
            ...Array.from(text, (c) => c.charCodeAt(0)),
            ...new Array(size * 2 - text.length).fill(0),
          ];
          return Array.from({ length: size }, (_, i) => ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0));
        });
    case 'eui48':
      return fc.oneof(
        fc.constant<number[]>([0xffff, 0xffff, 0xffff, 0xffff]),
        words(3).map((w) => [0, ...w]),
      );
    default:
      // A scaled 64-bit value is exact only up to 2^53: keep scaled counters within 2^48.
      if (size === 4 && p.sf !== undefined)
        return words(3).map((w) => [0, ...w.map((x, i) => (i === 0 ? x & 0xff : x))]);
      return words(size);
  }
}

const countNames = (g: GroupDef): string[] =>
  (g.groups ?? []).flatMap((c) => [...(typeof c.count === 'string' ? [c.count] : []), ...countNames(c)]);

/** A model of every bundled definition, with its repeating groups filled, to vary. */
function layouts(): DecodedModel[] {
  const demo = decodeDevice(new DemoSunSpecDevice(catalogue).read(), catalogue).models;
  return bundled.map(
    (def) =>
      demo.find((m) => m.id === def.id) ??
      (decodeDevice(chain(composeModel(def, {})), catalogue).models[0] as DecodedModel),
  );
}

describe('encode(decode(registers)) gives back the registers', () => {
  it.each(layouts().map((m) => [m.id, m] as const))('for model %i', (_id, layout) => {
    const fixed = new Set(['ID', 'L', ...countNames(layout.definition?.group as GroupDef)]);
    const varied = layout.points.filter((p) => !fixed.has(p.def.name) && p.def.type !== 'count');
    const arbitrary = fc.tuple(...varied.map((p) => registersFor(p.def, p.size)));
    fc.assert(
      fc.property(arbitrary, (contents) => {
        const registers = layout.registers.slice();
        varied.forEach((p, i) => {
          registers.set(contents[i] as number[], p.offset);
        });
        const decoded = decodeModel(registers, layout.definition, layout.address);
        expect(encodeModel(decoded)).toEqual(registers);
      }),
      { numRuns: 200, examples: examplesFor(layout, varied) },
    );
  });

  it('keeps float32 +Infinity and -Infinity from a device (model 112, TmpSnk; seed 1789561423)', () => {
    const layout = layouts().find((m) => m.id === 112) as DecodedModel;
    const point = layout.points.find((p) => p.def.name === 'TmpSnk');
    if (!point) throw new Error('model 112 has no TmpSnk');
    for (const [words32, value] of [
      [INFINITY_32, Number.POSITIVE_INFINITY],
      [MINUS_INFINITY_32, Number.NEGATIVE_INFINITY],
    ] as const) {
      const registers = layout.registers.slice();
      registers.set(words32, point.offset);
      const decoded = decodeModel(registers, layout.definition, layout.address);
      expect(decoded.points.find((p) => p.def.name === 'TmpSnk')?.value).toBe(value);
      expect(encodeModel(decoded)).toEqual(registers);
    }
  });
});

/** The kept counterexamples of a model as whole examples: every other point as the layout has it. */
function examplesFor(layout: DecodedModel, varied: DecodedModel['points']): [number[][]][] {
  return (FOUND[layout.id] ?? []).map((found) => [
    varied.map((p) =>
      p.def.name === found.point
        ? found.registers
        : Array.from(layout.registers.subarray(p.offset, p.offset + p.size)),
    ),
  ]);
}
