import {
  type Catalogue,
  type ConvertList,
  catalogueSchema,
  convertListSchema,
  type DeviceEntry,
} from '../../contracts/catalogue.ts';
import { errorMessage } from '../../contracts/error-message.ts';
import { ownValue } from '../../contracts/own-value.ts';
import type { DeviceConfig } from './config-schema.ts';
import { type LoadConfigResult, loadDeviceConfig, makeIssue } from './load-config.ts';

/** Reads a JSON file by name: `fetch('/' + file)` in the app, `readFile` in Node. */
export type JsonReader = (file: string) => Promise<unknown>;

/** A device model as the Bluetooth code and the Remote Debugger need it: its catalogue entry and its configuration. */
export interface DeviceProduct {
  modelId: string;
  entry: DeviceEntry;
  config: DeviceConfig;
}

/** Which model to load: by its id, or by a serial number's prefix when only the serial is known. */
export interface ProductQuery {
  serialNumber?: string | undefined;
  productId?: string | undefined;
}

/** The catalogue files bundled with the app (`public/`): the main list and the E1 list. */
export const BUNDLED_CATALOGUE_FILES = ['devices-list.json', 'devices-list-e1.json'] as const;
/** The bundled convert list: product key → `{product}-to-form.json`. */
export const BUNDLED_CONVERT_LIST_FILE = 'convert-list.json';

/**
 * Reads a file the app bundles, from the origin that serves the app.
 * @throws Error naming the file and the HTTP status when it does not load
 */
export const readBundledFile: JsonReader = async (file) => {
  const response = await fetch(`/${file}`);
  if (!response.ok) throw new Error(`/${file} could not be read (HTTP ${response.status})`);
  return response.json();
};

/**
 * Finds a device's configuration file through the convert list, reads it and loads it. Never
 * throws: a product missing from the convert list, a file that cannot be read and an invalid file
 * all come back as named issues.
 * @example
 * const result = await loadProductConfig(entry, convertList, async (f) => (await fetch(`/${f}`)).json());
 */
export async function loadProductConfig(
  entry: DeviceEntry,
  convertList: ConvertList,
  read: JsonReader,
): Promise<LoadConfigResult> {
  const file = ownValue(convertList, entry.productKey);
  if (!file) {
    const problem = `product "${entry.productKey}" has no configuration file`;
    return { ok: false, issues: [makeIssue('convert-list.json', {}, [], problem)] };
  }
  let json: unknown;
  try {
    json = await read(file);
  } catch (error) {
    const reason = errorMessage(error);
    return { ok: false, issues: [makeIssue(file, {}, [], `could not be read: ${reason}`)] };
  }
  return loadDeviceConfig(file, json, entry.write.bufferSize);
}

/** The model a query names in `catalogues`: by model id first, then by the serial number's prefix. */
export function findModel(
  catalogues: readonly Catalogue[],
  query: ProductQuery,
): [modelId: string, entry: DeviceEntry] | undefined {
  const models = catalogues.flatMap((catalogue) => Object.entries(catalogue.devicesList));
  return (
    models.find(([modelId]) => modelId === query.productId) ??
    models.find(([, entry]) => query.serialNumber?.startsWith(`${entry.serialPrefix}-`)) ??
    models.find(([modelId]) => modelId === query.serialNumber)
  );
}

/**
 * Finds a device's model in the bundled catalogue (by model id, or by the serial number's prefix)
 * and loads its `{product}-to-form.json`: what the Configure panel and the Remote Debugger work
 * from, with no account and no network.
 * @throws Error naming what is missing: an unknown device, or a catalogue file that does not load
 * @example const product = await loadBundledProduct({ serialNumber: 'HX5K-24-000123' }, readBundledFile);
 */
export async function loadBundledProduct(query: ProductQuery, read: JsonReader): Promise<DeviceProduct> {
  const catalogues = await Promise.all(
    BUNDLED_CATALOGUE_FILES.map(async (file) => catalogueSchema.parse(await read(file))),
  );
  const found = findModel(catalogues, query);
  if (!found) {
    const asked = query.productId ?? query.serialNumber ?? 'no device';
    throw new Error(`No device model in the catalogue matches "${asked}".`);
  }
  const [modelId, entry] = found;
  const convertList = convertListSchema.parse(await read(BUNDLED_CONVERT_LIST_FILE));
  const result = await loadProductConfig(entry, convertList, read);
  if (!result.ok) throw new Error(result.issues.map((issue) => issue.message).join('\n'));
  return { modelId, entry, config: result.config };
}
