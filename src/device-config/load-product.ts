import type { ConvertList, DeviceEntry } from '../../contracts/devices-list.ts';
import { type LoadConfigResult, loadDeviceConfig, makeIssue } from './load-config.ts';

/** Reads a JSON file by name: `fetch('/' + file)` in the app, `readFile` in Node. */
export type JsonReader = (file: string) => Promise<unknown>;

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
  const file = convertList[entry.productKey];
  if (!file) {
    const problem = `product "${entry.productKey}" has no configuration file`;
    return { ok: false, issues: [makeIssue('convert-list.json', {}, [], problem)] };
  }
  let json: unknown;
  try {
    json = await read(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, issues: [makeIssue(file, {}, [], `could not be read: ${reason}`)] };
  }
  return loadDeviceConfig(file, json, entry.write.bufferSize);
}
