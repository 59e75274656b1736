import { notFound } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import { z } from 'zod';
import { type DeviceEntry, serialNumberPattern } from '../../../contracts/catalogue.ts';
import { ownValue } from '../../../contracts/own-value.ts';
import {
  catalogueModels,
  e1CatalogueModels,
  isLoading,
} from '../../../machines/catalogue/catalogue-selectors.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { stopDeferring } from '../../when-idle.ts';

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

/** What the picker of `/device-details-old` holds: the model picked (if any) and the serial as typed. */
export interface OpenDeviceForm {
  modelId: string | null;
  serial: string;
}

/**
 * The picker's rule over the catalogue's models: a serial (any case) must be one, of a model the
 * catalogue knows, and of the model picked if one is; without a serial, a model is needed. Its
 * output is the id to open: the serial in capitals, or the model's id.
 * @example openDeviceSchema(models).parse({ modelId: null, serial: 'hx5k-24-000123' }) // 'HX5K-24-000123'
 */
export function openDeviceSchema(models: Record<string, DeviceEntry>) {
  return z
    .object({ modelId: z.string().nullable(), serial: z.string() })
    .superRefine(({ modelId, serial }, ctx) => {
      const typed = serial.trim().toUpperCase();
      const problem = (message: string) => ctx.addIssue({ code: 'custom', path: ['serial'], message });
      if (!typed) {
        if (!modelId) problem('Pick the model, or type the serial number.');
        return;
      }
      if (!serialNumberPattern.test(typed))
        return problem('A serial number looks like HX5K-24-000123: the model prefix, the year, six digits.');
      const model = modelOfSerial(models, typed);
      if (!model)
        return problem(`No model of the catalogue has serial numbers starting ${typed.split('-')[0]}.`);
      if (modelId && model.id !== modelId)
        problem(`${typed} is a serial number of ${model.entry.name}, not of ${models[modelId]?.name}.`);
    })
    .transform(({ modelId, serial }) => serial.trim().toUpperCase() || (modelId ?? ''));
}

/**
 * `loader` of `/device-details-old/{deviceid}`: the id must be a serial number of a model the
 * catalogue knows, or one of its model ids; anything else is the app's not-found page.
 * @throws the router's notFound for an id the catalogue does not know
 */
export async function loadOpenDevice(runtime: AppRuntime, deviceid: string) {
  // The page is the catalogue's: it is not left for after the start-up.
  stopDeferring();
  const models = await loadedModels(runtime);
  if (serialNumberPattern.test(deviceid)) {
    const model = modelOfSerial(models, deviceid);
    if (model) return { kind: 'serial' as const, modelId: model.id, modelName: model.entry.name };
  } else {
    const entry = ownValue(models, deviceid);
    if (entry) return { kind: 'model' as const, modelId: deviceid, modelName: entry.name };
  }
  throw notFound();
}
