import { describe, expect, it } from 'vitest';
import { devicesListSchema } from '../../contracts/devices-list.ts';
import { loadProductConfig } from '../../src/device-config/load-product.ts';
import { readPublic } from './bundled-products.ts';

const entry = devicesListSchema.parse(readPublic('devices-list-e1.json')).devicesList['E1-40'];
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
