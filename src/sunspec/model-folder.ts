import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type DefinitionFile,
  type DefinitionSet,
  describeSkipped,
  parseDefinitionFiles,
  type SkippedFile,
} from './catalogue.ts';
import type { ModelDef } from './model-schema.ts';
import { SunSpecError } from './sunspec-error.ts';

/** The folder of bundled definitions, for Node (tests, the command line). */
export const BUNDLED_MODELS_DIR = fileURLToPath(new URL('./models/', import.meta.url));

/**
 * Reads and checks every `*.json` file of a folder (Node): a malformed file is skipped with its
 * name and reason, the others load.
 * @throws SunSpecError 'bad-definition' for a missing or unreadable folder.
 */
export async function readModelFolder(folder: string): Promise<DefinitionSet> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith('.json')).sort();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
    throw new SunSpecError('bad-definition', `the model folder ${folder} cannot be read (${code})`);
  }
  const files: DefinitionFile[] = [];
  const unreadable: SkippedFile[] = [];
  for (const name of names) {
    try {
      files.push({ name, text: await readFile(join(folder, name), 'utf8') });
    } catch (cause) {
      unreadable.push({ name, reason: `cannot be read (${(cause as NodeJS.ErrnoException).code ?? cause})` });
    }
  }
  const set = parseDefinitionFiles(files);
  return {
    models: set.models,
    skipped: [...unreadable, ...set.skipped].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/**
 * The bundled definitions (Node): every one must load.
 * @throws SunSpecError 'bad-definition' naming the first bundled file that does not.
 */
export async function readBundledModels(): Promise<ModelDef[]> {
  const { models, skipped } = await readModelFolder(BUNDLED_MODELS_DIR);
  const [first] = describeSkipped(skipped);
  if (first) throw new SunSpecError('bad-definition', first);
  return models;
}
