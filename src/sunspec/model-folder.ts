import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DefinitionFile, parseDefinitionFiles } from './catalogue.ts';
import type { ModelDef } from './model-schema.ts';
import { SunSpecError } from './sunspec-error.ts';

/** The folder of bundled definitions, for Node (tests, the command line). */
export const BUNDLED_MODELS_DIR = fileURLToPath(new URL('./models/', import.meta.url));

/**
 * Reads and checks every `*.json` file of a folder (Node).
 * @throws SunSpecError 'bad-definition' for a missing or unreadable folder or a malformed file.
 */
export async function readModelFolder(folder: string): Promise<ModelDef[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith('.json')).sort();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
    throw new SunSpecError('bad-definition', `the model folder ${folder} cannot be read (${code})`);
  }
  const files: DefinitionFile[] = await Promise.all(
    names.map(async (name) => ({ name, text: await readFile(join(folder, name), 'utf8') })),
  );
  return parseDefinitionFiles(files);
}
