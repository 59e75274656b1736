import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/device-config/catalogue/catalogue.ts';
import { EXCLUDED_GROUPS, FACTORY_GROUP } from '../../src/device-config/excluded-groups.ts';
import { PASSWORD_ITEMS } from '../../src/device-config/password.ts';
import { stepRefs } from '../../src/device-config/process-step-schema.ts';
import { bundledProducts, readPublic } from './bundled-products.ts';

const products = bundledProducts();

describe('the bundled catalogue', () => {
  it('lists HX-5000, BX-10 and E1-40 with their product keys and 255-byte frames', () => {
    expect(products.map((p) => [p.modelId, p.entry.productKey, p.entry.write.bufferSize])).toEqual([
      ['HX-5000', 'hybrid5k', 255],
      ['BX-10', 'battery10', 255],
      ['E1-40', 'e1mppt40', 255],
    ]);
  });

  it('ships exactly what the typed product definitions generate', () => {
    for (const [key, build] of Object.entries(CATALOGUE))
      expect(readPublic(`${key}-to-form.json`)).toEqual(build());
  });
});

describe.each(products)('$modelId ($file)', ({ config, entry }) => {
  it('has at least 40 rawData items covering every width, signedness, byte order and a multiplier', () => {
    const shapes = new Set(config.rawData.map((r) => `${r.buffer.length}${r.buffer.signed ? 's' : 'u'}`));
    const orders = new Set(
      config.rawData.filter((r) => r.buffer.length > 8).map((r) => r.buffer.littleEndian),
    );
    expect(config.rawData.length).toBeGreaterThanOrEqual(40);
    expect([...shapes].sort()).toEqual(['16s', '16u', '32s', '32u', '8s', '8u']);
    expect([...orders].sort()).toEqual([false, true]);
    expect(config.rawData.some((r) => r.multiplier !== 1)).toBe(true);
  });

  it('uses every processData type, the 16 password items and a layout', () => {
    const types = new Set(config.otherData.flatMap((o) => o.processData.map((s) => s.type)));
    expect([...types].sort()).toEqual(['ass', 'bsv', 'cal', 'cdt', 'com', 'cts', 'itd', 'its', 'tfm', 'vfa']);
    const names = config.rawData.map((r) => r.name);
    for (const pass of PASSWORD_ITEMS) expect(names).toContain(pass);
    expect(config.otherData.some((o) => o.processData.some((s) => stepRefs(s).includes('$')))).toBe(true);
    expect(config.layout.rows.length).toBeGreaterThan(2);
  });

  it('has an excluded group, inactive fields, autoInput and every validation rule', () => {
    const objs = config.formData.flatMap((g) => g.dataObjs);
    expect(config.formData.map((g) => g.title)).toContain(FACTORY_GROUP);
    expect(EXCLUDED_GROUPS).toContain(FACTORY_GROUP);
    expect(objs.some((o) => !o.active)).toBe(true);
    expect(objs.some((o) => o.autoInput)).toBe(true);
    for (const rule of ['required', 'min', 'max', 'minLength', 'maxLength', 'rex'] as const)
      expect(objs.some((o) => o[rule] !== undefined)).toBe(true);
  });

  it('answers its four standard commands', () => {
    expect(entry.commands.slice(0, 4).map((c) => [c.name, c.opCode])).toEqual([
      ['Read configuration', 1],
      ['Write configuration', 2],
      ['Read live values', 3],
      ['Check password', 4],
    ]);
  });
});
