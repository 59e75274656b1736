import { waitFor } from 'xstate';
import { type DeviceEntry, serialNumberPattern } from '../../../contracts/catalogue.ts';
import {
  catalogueModels,
  e1CatalogueModels,
  isLoading,
} from '../../../machines/catalogue/catalogue-selectors.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';

/** The models of the catalogue the app keeps (both lists), once it has loaded, by model id. */
export async function loadedModels(runtime: AppRuntime): Promise<Record<string, DeviceEntry>> {
  const snapshot = await waitFor(runtime.catalogue, (s) => !isLoading(s));
  return { ...(catalogueModels(snapshot) ?? {}), ...(e1CatalogueModels(snapshot) ?? {}) };
}

/** The model a serial number belongs to, by its prefix (`HX5K-24-000123` → the `HX5K` model). */
export function modelOfSerial(
  models: Record<string, DeviceEntry>,
  serial: string,
): { id: string; entry: DeviceEntry } | null {
  const prefix = serial.split('-')[0];
  const found = Object.entries(models).find(([, entry]) => entry.serialPrefix === prefix);
  return found ? { id: found[0], entry: found[1] } : null;
}

/**
 * Whether a `/device-details-old/{deviceid}` id names something the catalogue knows: a serial
 * number of one of its models, or one of its model ids.
 * @example isKnownDevice(models, 'HX5K-24-000123') // true when a model has the serial prefix HX5K
 */
export function isKnownDevice(models: Record<string, DeviceEntry>, deviceid: string): boolean {
  return serialNumberPattern.test(deviceid)
    ? modelOfSerial(models, deviceid) !== null
    : models[deviceid] !== undefined;
}
