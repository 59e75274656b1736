// Build-time only (Vite's build, in Node).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` whose name matches `name`, in its folders too (`node_modules` left out). */
export function filesUnder(dir: string, name = /./): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' ? [] : filesUnder(path, name);
    return name.test(entry) ? [path] : [];
  });
}
