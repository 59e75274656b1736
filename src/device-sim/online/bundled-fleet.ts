import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Catalogue, catalogueSchema } from '../../../contracts/catalogue.ts';
import { loadCodec } from '../../codec/load-node.ts';
import type { DeviceConfig } from '../../device-config/config-schema.ts';
import { requireDeviceConfig } from '../../device-config/load-config.ts';
import { SimulatorFleet } from '../simulator-fleet.ts';

const LIST_FILES = ['devices-list.json', 'devices-list-e1.json'];

/**
 * The simulator fleet of the bundled catalogue (`public/`): both devices lists and every product's
 * configuration, on the Wasm codec, so a serial number's simulated device answers as in the app.
 * `now` is the devices' clock (default the real one).
 * @throws when a bundled file is missing or invalid, or the codec is not built (`npm run build:wasm`).
 */
export async function bundledFleet(publicDir = 'public', now?: () => number): Promise<SimulatorFleet> {
  const read = (file: string): unknown => JSON.parse(readFileSync(join(publicDir, file), 'utf8'));
  const convert = read('convert-list.json') as Record<string, string>;
  const lists: Catalogue[] = LIST_FILES.map((file) => catalogueSchema.parse(read(file)));
  const configs: Record<string, DeviceConfig> = {};
  for (const list of lists)
    for (const entry of Object.values(list.devicesList)) {
      const file = convert[entry.productKey] ?? `${entry.productKey}-to-form.json`;
      configs[entry.productKey] = requireDeviceConfig(file, read(file), entry.write.bufferSize);
    }
  return new SimulatorFleet({ codec: await loadCodec(), lists, configs, ...(now ? { now } : {}) });
}
