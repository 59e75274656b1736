import { readdirSync } from 'node:fs';
import type { MachineModel } from './model-entry.ts';

const folder = new URL('../models/', import.meta.url);

/**
 * Every registered model: each `.ts` file of `tests/machines/models/` whose default export is a
 * {@link MachineModel}, in name order. A new machine needs only its file there.
 */
export async function loadModels(): Promise<MachineModel[]> {
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const models: MachineModel[] = [];
  for (const file of files) {
    const module = (await import(new URL(file, folder).href)) as { default?: MachineModel };
    if (!module.default?.model) throw new Error(`tests/machines/models/${file} exports no model entry`);
    models.push(module.default);
  }
  const names = models.map((m) => m.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`two model entries are named ${twice}`);
  return models;
}
