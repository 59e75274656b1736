import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { buildConfigFrame, decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { encodeConfiguration } from '../../src/device-config/encode-form.ts';
import { EXCLUDED_GROUPS, FACTORY_GROUP } from '../../src/device-config/excluded-groups.ts';
import { fieldRange } from '../../src/device-config/field-range.ts';
import { buildForm, type FormGroupModel } from '../../src/device-config/form-fields.ts';
import { validateField } from '../../src/device-config/validate-field.ts';
import { bundledProducts } from './bundled-products.ts';

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

const products = bundledProducts();

/** What a user who changes nothing submits: every field at the device's value. */
function untouched(groups: readonly FormGroupModel[]): Record<string, unknown> {
  return Object.fromEntries(groups.flatMap((g) => g.fields.map((f) => [f.name, f.deviceValue])));
}

describe.each(products)('$modelId on the Wasm codec', ({ config, entry }) => {
  const size = entry.write.bufferSize;

  it('decodes every field in one batch call over a table prepared once for the product', () => {
    const batches: unknown[] = [];
    let prepared = 0;
    const counting: Codec = {
      ...codec,
      prepareFields: (ds) => {
        prepared++;
        return codec.prepareFields(ds);
      },
      decodeFields: (frame, fields) => {
        batches.push(fields);
        return codec.decodeFields(frame, fields);
      },
    };
    const copy = structuredClone(config);
    const frame = buildConfigFrame(codec, config, 0x81, size);
    const decoded = decodeConfiguration(counting, copy, frame);
    decodeConfiguration(counting, copy, frame);
    expect(batches).toHaveLength(2);
    expect(prepared).toBe(1);
    expect(batches[0]).toBe(batches[1]);
    expect(Array.isArray(batches[0])).toBe(false);
    expect(decoded.values.password).toMatch(/^\S{4,16}$/);
    expect(decoded.values.deviceClockTime).toBe('12:00 am');
  });

  it('names a frame too short for the 254-byte view instead of reading past it', () => {
    expect(() => decodeConfiguration(codec, config, new Uint8Array(100))).toThrow(
      expect.objectContaining({ name: 'CodecError', code: 'frame-length' }),
    );
  });

  it('gives back the same bytes from frame → form → frame', () => {
    const frame = buildConfigFrame(codec, config, 0x81, size);
    const groups = buildForm(config, decodeConfiguration(codec, config, frame));
    const result = encodeConfiguration(codec, config, groups, untouched(groups), frame);
    expect(result.ok && Array.from(result.frame)).toEqual(Array.from(frame));
  });

  it('round-trips any numeric field values the device can hold', () => {
    const writable = config.rawData.filter((r) => !r.readOnly);
    const arbitraryRaw = fc.record(
      Object.fromEntries(writable.map((r) => [r.name, fc.integer(fieldRange(r.buffer))])),
    ) as fc.Arbitrary<Record<string, number>>;
    fc.assert(
      fc.property(arbitraryRaw, (raw) => {
        const frame = buildConfigFrame(codec, config, 0x81, size, { ...raw });
        const decoded = decodeConfiguration(codec, config, frame);
        // Only plain number fields: text and date-time fields hold arbitrary bytes here, not text.
        const groups = buildForm(config, decoded).map((g) => ({
          ...g,
          fields: g.fields.filter((f) => f.kind === 'number').map((f) => ({ ...f, rules: {} })),
        }));
        const result = encodeConfiguration(codec, config, groups, untouched(groups), frame);
        expect(result.ok && Array.from(result.frame)).toEqual(Array.from(frame));
      }),
      { numRuns: 40 },
    );
  });

  it('writes an edited value divided by its multiplier and rounded, with a fresh CRC', () => {
    const frame = buildConfigFrame(codec, config, 0x81, size);
    const groups = buildForm(config, decodeConfiguration(codec, config, frame));
    const field = groups
      .flatMap((g) => g.fields)
      .find((f) => f.kind === 'number' && !f.disabled && f.rules.max);
    const item = config.rawData.find((r) => r.name === field?.name);
    if (!field || !item || !field.rules.max) throw new Error('catalogue has no bounded number field');
    const edited = field.rules.max.value;
    const result = encodeConfiguration(codec, config, groups, { [field.name]: String(edited) }, frame, {
      opcode: 2,
    });
    if (!result.ok) throw new Error(result.errors[0]?.message);
    expect(result.frame[0]).toBe(2);
    expect(() => codec.verifyFrame(result.frame, size)).not.toThrow();
    expect(decodeConfiguration(codec, config, result.frame).raw[item.name]).toBe(
      Math.round(edited / item.multiplier),
    );
  });

  it('writes a name in letters of any language as UTF-8, reads it back, and counts its bytes', () => {
    const frame = buildConfigFrame(codec, config, 0x81, size);
    const groups = buildForm(config, decodeConfiguration(codec, config, frame));
    const name = groups.flatMap((g) => g.fields).find((f) => f.name === 'deviceName');
    if (!name) throw new Error('no deviceName field');
    const write = (text: string) => {
      expect(validateField(name, text), text).toBeNull();
      return encodeConfiguration(codec, config, groups, { ...untouched(groups), deviceName: text }, frame);
    };
    for (const text of ['Müller WR', 'Ørsted 3', 'Łódź-2', 'Γεια 1']) {
      const result = write(text);
      if (!result.ok) throw new Error(result.errors[0]?.message);
      const decoded = decodeConfiguration(codec, config, result.frame);
      expect(decoded.values.deviceName).toBe(text);
      expect(decoded.raw.name_01).toBe(new TextEncoder().encode(text)[1]);
    }
    // Twelve letters, fourteen bytes: told as bytes, with what the name needs.
    const long = write('Müllerstraße');
    expect(long.ok).toBe(false);
    expect(!long.ok && long.errors[0]?.message).toBe(
      'Device name takes at most 12 bytes: letters such as ü or é take 2 each, and this one needs 14',
    );
    // What the rule refuses it says so; punctuation beyond _ and - is not a name's.
    expect(validateField(name, 'Müller/WR')).toBe('Device name is not valid');
  });

  it('reads a name a device wrote in Latin-1 one character per code, as before', () => {
    const latin1 = [...'Müller'].map((c) => c.charCodeAt(0));
    const raw = Object.fromEntries(latin1.map((code, i) => [`name_${String(i).padStart(2, '0')}`, code]));
    const frame = buildConfigFrame(codec, config, 0x81, size, {
      ...raw,
      ...Object.fromEntries(
        Array.from({ length: 12 - latin1.length }, (_, i) => [`name_${String(i + 6).padStart(2, '0')}`, 0]),
      ),
    });
    expect(decodeConfiguration(codec, config, frame).values.deviceName).toBe('Müller');
  });

  it('ships factory settings that pass every rule of its own form', () => {
    const decoded = decodeConfiguration(codec, config, buildConfigFrame(codec, config, 0x81, size));
    const fields = buildForm(config, decoded).flatMap((g) => g.fields.filter((f) => !f.disabled));
    const problems = fields.flatMap((f) => validateField(f, f.deviceValue) ?? []);
    expect(problems).toEqual([]);
    expect(fields.length).toBeGreaterThan(10);
  });

  it('builds no controls for the excluded group', () => {
    const decoded = decodeConfiguration(codec, config, buildConfigFrame(codec, config, 0x81, size));
    const titles = buildForm(config, decoded, { excludedGroups: EXCLUDED_GROUPS }).map((g) => g.title);
    expect(titles).not.toContain(FACTORY_GROUP);
    expect(titles.length).toBe(config.formData.length - 1);
  });
});
