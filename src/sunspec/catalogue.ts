import type { ModelCatalogue } from './decode-device.ts';
import type { ModelDef } from './model-schema.ts';
import { parseModelDefinition } from './validate-model.ts';

/** A definition file as read from disk or a file picker. */
export interface DefinitionFile {
  name: string;
  text: string;
}

/**
 * Parses and checks definition files; every file must be valid.
 * @throws SunSpecError 'bad-definition' naming the first bad file, its point and what is wrong.
 */
export function parseDefinitionFiles(files: readonly DefinitionFile[]): ModelDef[] {
  return files.map((file) => parseModelDefinition(file.text, file.name));
}

/** Models by id; a later definition of the same id replaces an earlier one (user files over bundled). */
export function buildCatalogue(...lists: readonly (readonly ModelDef[])[]): ModelCatalogue {
  const catalogue = new Map<number, ModelDef>();
  for (const list of lists) for (const model of list) catalogue.set(model.id, model);
  return catalogue;
}
