import { describe, expect, it } from 'vitest';
import { catalogueSchema, convertListSchema, serialNumberPattern } from '../../contracts/catalogue.ts';
import { readPublic } from './bundled-products.ts';

describe('the catalogue contract', () => {
  it('accepts both bundled lists and the convert list', () => {
    expect(catalogueSchema.parse(readPublic('devices-list.json')).listVersion).toBe(7);
    expect(catalogueSchema.parse(readPublic('devices-list-e1.json')).listVersion).toBe(3);
    expect(convertListSchema.parse(readPublic('convert-list.json')).e1mppt40).toBe('e1mppt40-to-form.json');
  });

  it('names the field of an entry that is wrong', () => {
    const list = readPublic('devices-list.json') as {
      devicesList: Record<string, { write: { service: string } }>;
    };
    const entry = list.devicesList['HX-5000'];
    if (entry) entry.write.service = entry.write.service.toUpperCase();
    const result = catalogueSchema.safeParse(list);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['devicesList.HX-5000.write.service', 'must be a lower-case 128-bit UUID'],
    ]);
  });

  it('recognises the serial numbers of the bundled models', () => {
    for (const serial of ['HX5K-24-000123', 'BX10-25-004411', 'E140-25-000907'])
      expect(serialNumberPattern.test(serial)).toBe(true);
    expect(serialNumberPattern.test('HX5K-2024-123')).toBe(false);
  });
});
