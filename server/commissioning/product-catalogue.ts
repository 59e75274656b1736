import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { convertListSchema, type DeviceEntry } from '../../contracts/catalogue.ts';
import { ownValue } from '../../contracts/own-value.ts';
import type { DeviceConfig } from '../../src/device-config/config-schema.ts';
import { loadProductConfig } from '../../src/device-config/load-product.ts';
import { type CatalogueLookup, catalogueIn } from '../service-comms/catalogue-commands.ts';

/** A model of the bundled catalogue with its loaded device configuration. */
export interface CatalogueProduct {
  modelId: string;
  entry: DeviceEntry;
  config: DeviceConfig;
}

/** The catalogue as the commissioning calls read it. */
export interface ProductCatalogue {
  /** A model's devices-list entry, or undefined when no bundled list has it. */
  entry: CatalogueLookup;
  /**
   * A model with its configuration, or undefined when the catalogue has no such model.
   * @throws when the model's configuration file is missing or invalid (a broken deployment).
   */
  product(modelId: string): Promise<CatalogueProduct | undefined>;
}

/**
 * The bundled catalogue of `publicDir` (devices lists, convert list, `{product}-to-form.json`),
 * loaded with the same engine as the app. A loaded configuration is kept until its file changes
 * (`npm run catalogue:generate` may rewrite the files while the server runs).
 */
export function productCatalogueIn(publicDir: string): ProductCatalogue {
  const entry = catalogueIn(publicDir);
  const loaded = new Map<string, { stamp: number; config: DeviceConfig }>();
  const readJson = async (file: string): Promise<unknown> =>
    JSON.parse(await readFile(join(publicDir, file), 'utf8'));

  async function configOf(found: DeviceEntry): Promise<DeviceConfig> {
    const convertList = convertListSchema.parse(await readJson('convert-list.json'));
    const file = ownValue(convertList, found.productKey);
    const stamp = file ? (await stat(join(publicDir, file)).catch(() => undefined))?.mtimeMs : undefined;
    const cached = file ? loaded.get(file) : undefined;
    if (file && cached && cached.stamp === stamp) return cached.config;
    const result = await loadProductConfig(found, convertList, readJson);
    if (!result.ok) throw new Error(result.issues.map((issue) => issue.message).join('; '));
    if (file && stamp !== undefined) loaded.set(file, { stamp, config: result.config });
    return result.config;
  }

  return {
    entry,
    async product(modelId) {
      const found = await entry(modelId);
      if (!found) return undefined;
      return { modelId, entry: found, config: await configOf(found) };
    },
  };
}
