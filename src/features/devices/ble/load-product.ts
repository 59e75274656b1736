import {
  type ConvertList,
  convertListSchema,
  devicesListSchema,
} from '../../../../contracts/devices-list.ts';
import type { DeviceProduct } from '../../../ble/device-commands.ts';
import { loadProductConfig } from '../../../device-config/load-product.ts';

/** The bundled catalogue files the Configure panel works from, with no account and no network. */
const BUNDLED_LISTS = ['/devices-list.json', '/devices-list-e1.json'];
const BUNDLED_CONVERT_LIST = '/convert-list.json';

async function readJson(path: string): Promise<unknown> {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path} could not be read (HTTP ${response.status})`);
  return response.json();
}

/** Which device the panel configures: a serial number, or a model id when the serial is not known. */
export interface ProductQuery {
  serialNumber?: string | undefined;
  productId?: string | undefined;
}

/**
 * Finds a device's model in the bundled devices lists (by model id, or by the serial number's
 * prefix) and loads its `{product}-to-form.json`.
 * @throws Error naming what is missing: an unknown device, or a catalogue file that does not load.
 * @example const product = await loadBundledProduct({ serialNumber: 'HX5K-24-000123' });
 */
export async function loadBundledProduct(query: ProductQuery): Promise<DeviceProduct> {
  const lists = await Promise.all(
    BUNDLED_LISTS.map(async (path) => devicesListSchema.parse(await readJson(path))),
  );
  const convertList: ConvertList = convertListSchema.parse(await readJson(BUNDLED_CONVERT_LIST));
  const models = lists.flatMap((list) => Object.entries(list.devicesList));
  const found =
    models.find(([modelId]) => modelId === query.productId) ??
    models.find(([, entry]) => query.serialNumber?.startsWith(`${entry.serialPrefix}-`)) ??
    models.find(([modelId]) => modelId === query.serialNumber);
  if (!found) {
    const asked = query.serialNumber ?? query.productId ?? 'no device';
    throw new Error(`No device model in the catalogue matches "${asked}".`);
  }
  const [modelId, entry] = found;
  const result = await loadProductConfig(entry, convertList, (file) => readJson(`/${file}`));
  if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('\n'));
  return { modelId, entry, config: result.config };
}
