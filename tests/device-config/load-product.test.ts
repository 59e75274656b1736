import { describe, expect, it } from 'vitest';
import { catalogueSchema } from '../../contracts/catalogue.ts';
import { loadBundledProduct, loadProductConfig } from '../../src/device-config/load-product.ts';
import { readPublic } from './bundled-products.ts';

const entry = catalogueSchema.parse(readPublic('devices-list-e1.json')).devicesList['E1-40'];
if (!entry) throw new Error('E1-40 missing');
const convert = { e1mppt40: 'e1mppt40-to-form.json' };

describe('loading a product configuration through the convert list', () => {
  it('loads the file the convert list names', async () => {
    const result = await loadProductConfig(entry, convert, async (file) => readPublic(file));
    expect(result.ok && result.config.rawData.length).toBeGreaterThanOrEqual(40);
  });

  it('names a product the convert list does not know', async () => {
    const result = await loadProductConfig(entry, {}, async () => ({}));
    expect(result.ok ? '' : result.issues[0]?.message).toBe(
      'convert-list.json: product "e1mppt40" has no configuration file',
    );
  });

  it('names a file that cannot be read', async () => {
    const result = await loadProductConfig(entry, convert, async () => {
      throw new Error('HTTP 404');
    });
    expect(result.ok ? '' : result.issues[0]?.message).toBe(
      'e1mppt40-to-form.json: could not be read: HTTP 404',
    );
  });
});

describe('loading a bundled product, as the Configure panel and the Remote Debugger do', () => {
  const read = async (file: string) => readPublic(file);

  it('finds a model by its id, in either catalogue file', async () => {
    const hybrid = await loadBundledProduct({ productId: 'HX-5000' }, read);
    expect([hybrid.modelId, hybrid.entry.serialPrefix]).toEqual(['HX-5000', 'HX5K']);
    const e1 = await loadBundledProduct({ productId: 'E1-40' }, read);
    expect(e1.config.rawData.length).toBeGreaterThanOrEqual(40);
  });

  it("finds a model by a serial number's prefix when only the serial is known", async () => {
    const product = await loadBundledProduct({ serialNumber: 'BX10-25-004411' }, read);
    expect(product.modelId).toBe('BX-10');
  });

  it('names a device no model of the catalogue matches', async () => {
    await expect(loadBundledProduct({ serialNumber: 'ZZ99-25-000001' }, read)).rejects.toThrow(
      'No device model in the catalogue matches "ZZ99-25-000001".',
    );
  });

  it('names a catalogue file that does not load', async () => {
    const missing = async (file: string) => {
      if (file === 'devices-list-e1.json')
        throw new Error('/devices-list-e1.json could not be read (HTTP 404)');
      return readPublic(file);
    };
    await expect(loadBundledProduct({ productId: 'HX-5000' }, missing)).rejects.toThrow('HTTP 404');
  });
});
