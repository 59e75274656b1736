import type { MachineModel } from './model-entry.ts';

// Vite (vitest, and `npm run test:paths` through Vite's module runner) reads the folder.
const files = import.meta.glob<{ default?: MachineModel }>('../models/*.ts', { eager: true });

/**
 * Every registered model: each `.ts` file of `tests/machines/models/` whose default export is a
 * {@link MachineModel}, in name order. A new machine needs only its file there.
 */
export async function loadModels(): Promise<MachineModel[]> {
  const models = Object.entries(files)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, module]) => {
      if (!module.default?.model) throw new Error(`${file} exports no model entry`);
      return module.default;
    });
  const names = models.map((m) => m.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`two model entries are named ${twice}`);
  return models;
}
