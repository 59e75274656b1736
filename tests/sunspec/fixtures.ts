import { buildCatalogue } from '../../src/sunspec/catalogue.ts';
import { readBundledModels } from '../../src/sunspec/model-folder.ts';
import type { ModelDef } from '../../src/sunspec/model-schema.ts';

export const bundled: ModelDef[] = await readBundledModels();
export const catalogue = buildCatalogue(bundled);

export function model(id: number): ModelDef {
  const found = catalogue.get(id);
  if (!found) throw new Error(`model ${id} is not bundled`);
  return found;
}

/** A dump that starts with the marker at 40000, holds the given model blocks, then the end marker. */
export function chain(...blocks: Uint16Array[]): { start: number; registers: Uint16Array } {
  const words = [0x5375, 0x6e53];
  for (const block of blocks) words.push(...block);
  words.push(0xffff, 0);
  return { start: 40000, registers: Uint16Array.from(words) };
}
