import { describe, expect, it } from 'vitest';
import { openDeviceSchema } from '../../src/features/devices/open-device.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';

const models = Object.fromEntries(bundledProducts().map((p) => [p.modelId, p.entry]));
const schema = openDeviceSchema(models);
const why = (modelId: string | null, serial: string) => {
  const result = schema.safeParse({ modelId, serial });
  return result.success ? null : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe("the open device picker's rule", () => {
  it('opens a serial in capitals, of the model picked or of none, or a model without a serial', () => {
    expect(schema.parse({ modelId: null, serial: ' hx5k-24-000133 ' })).toBe('HX5K-24-000133');
    expect(schema.parse({ modelId: 'HX-5000', serial: 'HX5K-24-000133' })).toBe('HX5K-24-000133');
    expect(schema.parse({ modelId: 'BX-10', serial: '' })).toBe('BX-10');
  });

  it('says on the serial what is wrong: nothing given, not a serial, an unknown prefix, another model', () => {
    expect(why(null, '  ')).toEqual(['serial: Pick the model, or type the serial number.']);
    expect(why(null, 'HX5K-1')).toEqual([
      'serial: A serial number looks like HX5K-24-000123: the model prefix, the year, six digits.',
    ]);
    expect(why(null, 'ZZ99-24-000001')).toEqual([
      'serial: No model of the catalogue has serial numbers starting ZZ99.',
    ]);
    expect(why('HX-5000', 'bx10-24-000001')?.[0]).toMatch(
      /^serial: BX10-24-000001 is a serial number of .+, not of .+\.$/,
    );
  });
});
