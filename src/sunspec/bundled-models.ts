import type { ModelDef } from './model-schema.ts';
import { parseModelDefinition } from './validate-model.ts';

// Each definition is its own chunk, fetched only when the configurator asks for the catalogue, so
// the JSON stays out of every other screen's bundle.
const files = import.meta.glob<unknown>('./models/model_*.json', { import: 'default' });

let loading: Promise<ModelDef[]> | undefined;

/**
 * The bundled model definitions, loaded lazily (Vite) and checked like any other file.
 * @throws SunSpecError 'bad-definition' if a bundled file is malformed.
 */
export function loadBundledModels(): Promise<ModelDef[]> {
  loading ??= Promise.all(
    Object.entries(files).map(async ([path, load]) =>
      parseModelDefinition(await load(), path.replace('./models/', '')),
    ),
  )
    .then((models) => models.sort((a, b) => a.id - b.id))
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}
