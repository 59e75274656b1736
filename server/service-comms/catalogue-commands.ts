import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { catalogueSchema, type DeviceEntry } from '../../contracts/catalogue.ts';
import { ownValue } from '../../contracts/own-value.ts';

/** The bundled devices lists (the catalogue): each model's commands and frame size. */
const LIST_FILES = ['devices-list.json', 'devices-list-e1.json'];

/** A model's catalogue entry, or undefined when no bundled list has it. */
export type CatalogueLookup = (modelId: string) => Promise<DeviceEntry | undefined>;

/**
 * Look models up in the bundled devices lists of `publicDir`, read on each call (they are small,
 * and `npm run catalogue:generate` may rewrite them while the server runs).
 * @throws when a list cannot be read or is not a valid devices list.
 */
export function catalogueIn(publicDir: string): CatalogueLookup {
  return async (modelId) => {
    for (const file of LIST_FILES) {
      const list = catalogueSchema.parse(JSON.parse(await readFile(join(publicDir, file), 'utf8')));
      const entry = ownValue(list.devicesList, modelId);
      if (entry) return entry;
    }
    return undefined;
  };
}

/**
 * Whether a frame is one of the model's catalogue commands: a whole command frame of the model's
 * write size whose opcode (byte 0) is one of the entry's commands.
 * @example isCatalogueCommand(hx5000, [...codec.buildFrame(0x10, 255)]) // true: Restart inverter
 */
export function isCatalogueCommand(entry: DeviceEntry, frame: readonly number[]): boolean {
  return (
    frame.length === entry.write.bufferSize && entry.commands.some((command) => command.opCode === frame[0])
  );
}
