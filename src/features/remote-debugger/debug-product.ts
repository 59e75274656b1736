import { convertListSchema, devicesListSchema } from '../../../contracts/devices-list.ts';
import type { DeviceProduct } from '../../ble/device-commands.ts';
import { loadProductConfig } from '../../device-config/load-product.ts';

/** The catalogue files bundled with the app: the debugger works from them with no download. */
const BUNDLED_LISTS = ['/devices-list.json', '/devices-list-e1.json'];

async function readJson(path: string): Promise<unknown> {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path} could not be read (HTTP ${response.status})`);
  return response.json();
}

/**
 * A model's catalogue entry (commands, frame size) and its rawData, from the bundled devices lists.
 * @throws Error naming the model when the catalogue has no such model or its file does not load
 * @example const product = await loadDebugProduct('HX-5000');
 */
export async function loadDebugProduct(modelId: string): Promise<DeviceProduct> {
  const lists = await Promise.all(
    BUNDLED_LISTS.map(async (path) => devicesListSchema.parse(await readJson(path))),
  );
  const entry = lists.map((list) => list.devicesList[modelId]).find((found) => found !== undefined);
  if (!entry) throw new Error(`The catalogue has no model “${modelId}”.`);
  const convertList = convertListSchema.parse(await readJson('/convert-list.json'));
  const result = await loadProductConfig(entry, convertList, (file) => readJson(`/${file}`));
  if (!result.ok) throw new Error(result.issues.map((issue) => issue.message).join('\n'));
  return { modelId, entry, config: result.config };
}
