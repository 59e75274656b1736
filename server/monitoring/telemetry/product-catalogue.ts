import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { catalogueSchema, type DeviceEntry } from '../../../contracts/catalogue.ts';
import { ownValue } from '../../../contracts/own-value.ts';
import type { Codec } from '../../../src/codec/types.ts';
import type { DeviceConfig } from '../../../src/device-config/config-schema.ts';
import { requireDeviceConfig } from '../../../src/device-config/load-config.ts';
import { type TelemetrySpec, telemetrySpec } from '../../../src/device-config/telemetry-spec.ts';

const LIST_FILES = ['devices-list.json', 'devices-list-e1.json'];
const CONVERT_FILE = 'convert-list.json';
/** How often the files are checked for a change (`npm run catalogue:generate` while running). */
const RECHECK_MS = 10_000;

/** A model as telemetry reads it: its devices-list entry, its configuration and its telemetry. */
export interface Product {
  modelId: string;
  entry: DeviceEntry;
  config: DeviceConfig;
  /** Undefined for a product whose file has no `monitoring` part: it sends no telemetry. */
  spec: TelemetrySpec | undefined;
}

/**
 * The bundled catalogue of `publicDir` (devices lists and `{product}-to-form.json`), loaded and
 * checked once and looked up without waiting on the hot path. The files are checked for a change
 * at most every 10 seconds and read again when one changed; a catalogue that no longer loads keeps
 * the last good one (and says why in the log).
 */
export class ProductCatalogue {
  private products = new Map<string, Product>();
  private stamp = '';
  private checkedAt = 0;
  private checking: Promise<void> | undefined;

  constructor(
    readonly codec: Codec,
    private readonly publicDir: string,
  ) {}

  /** Load the catalogue. @throws when it cannot be read or is invalid. */
  async load(): Promise<void> {
    const read = async (file: string): Promise<unknown> =>
      JSON.parse(await readFile(join(this.publicDir, file), 'utf8'));
    const convert = (await read(CONVERT_FILE)) as Record<string, string>;
    const products = new Map<string, Product>();
    for (const listFile of LIST_FILES) {
      const list = catalogueSchema.parse(await read(listFile));
      for (const [modelId, entry] of Object.entries(list.devicesList)) {
        const file = ownValue(convert, entry.productKey) ?? `${entry.productKey}-to-form.json`;
        const config = requireDeviceConfig(file, await read(file), entry.write.bufferSize);
        products.set(modelId, { modelId, entry, config, spec: telemetrySpec(config) });
      }
    }
    this.products = products;
    this.stamp = await this.filesStamp();
    this.checkedAt = Date.now();
  }

  /** The model's product, or undefined when the catalogue has none. Never waits. */
  product(modelId: string): Product | undefined {
    this.recheckSoon();
    return this.products.get(modelId);
  }

  /** Every product, by model id. */
  all(): ReadonlyMap<string, Product> {
    return this.products;
  }

  private recheckSoon(): void {
    if (this.checking || Date.now() - this.checkedAt < RECHECK_MS) return;
    this.checkedAt = Date.now();
    this.checking = this.filesStamp()
      .then((stamp) => (stamp === this.stamp ? undefined : this.load()))
      .catch((error: unknown) =>
        console.error('[monitoring] the catalogue changed and does not load; keeping the last one:', error),
      )
      .finally(() => {
        this.checking = undefined;
      });
  }

  /** The files' sizes and times: what changes when any of them is written. */
  private async filesStamp(): Promise<string> {
    const names = new Set([...LIST_FILES, CONVERT_FILE]);
    for (const product of this.products.values()) names.add(`${product.entry.productKey}-to-form.json`);
    const stats = await Promise.all(
      [...names].map((name) =>
        stat(join(this.publicDir, name)).then((s) => `${name}:${s.size}:${s.mtimeMs}`),
      ),
    );
    return stats.join('|');
  }
}
