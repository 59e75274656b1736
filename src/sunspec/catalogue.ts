import type { ModelCatalogue } from './decode-device.ts';
import type { ModelDef } from './model-schema.ts';
import { SunSpecError } from './sunspec-error.ts';
import { parseModelDefinition } from './validate-model.ts';

/** A definition file as read from disk or a file picker. */
export interface DefinitionFile {
  name: string;
  text: string;
}

/** A definition file that was not loaded, and why (the point or group and what is wrong with it). */
export interface SkippedFile {
  name: string;
  reason: string;
}

/** What a set of definition files gave: every valid model, and every other file with its reason. */
export interface DefinitionSet {
  models: ModelDef[];
  skipped: SkippedFile[];
}

/**
 * Parses and checks definition files, as a folder of them is read: a bad file is skipped with its
 * name and reason, and the others load.
 * @example parseDefinitionFiles([{ name: 'model_805.json', text }]).models[0]?.id // 805
 */
export function parseDefinitionFiles(files: readonly DefinitionFile[]): DefinitionSet {
  const set: DefinitionSet = { models: [], skipped: [] };
  for (const file of files) {
    try {
      set.models.push(parseModelDefinition(file.text, file.name));
    } catch (error) {
      if (!(error instanceof SunSpecError)) throw error;
      set.skipped.push({ name: file.name, reason: error.message.replace(`${file.name}: `, '') });
    }
  }
  return set;
}

/** One line per skipped file: `model_9.json: not valid JSON (…)`. */
export function describeSkipped(skipped: readonly SkippedFile[]): string[] {
  return skipped.map((file) => `${file.name}: ${file.reason}`);
}

/** Models by id; a later definition of the same id replaces an earlier one (user files over bundled). */
export function buildCatalogue(...lists: readonly (readonly ModelDef[])[]): ModelCatalogue {
  const catalogue = new Map<number, ModelDef>();
  for (const list of lists) for (const model of list) catalogue.set(model.id, model);
  return catalogue;
}
