import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANTINE_CLASS } from '../../src/prerender/used-mantine-rules.ts';

// The build the suite serves (global-setup.ts builds it when stale).
const ASSETS = new URL('../../dist/assets/', import.meta.url).pathname;
const WHOLE_SHEET = new URL('../../node_modules/@mantine/core/styles.layer.css', import.meta.url).pathname;

const classesOf = (text: string) => new Set(text.match(MANTINE_CLASS));
const read = (file: string) => readFileSync(join(ASSETS, file), 'utf8');

describe("the build's Mantine sheet", () => {
  const files = readdirSync(ASSETS);
  const sheets = files.filter((file) => /^mantine-all-[\w-]+\.css$/.test(file));
  const setByCode = classesOf(
    files
      .filter((file) => file.endsWith('.js'))
      .map(read)
      .join('\n'),
  );
  const styledByMantine = classesOf(readFileSync(WHOLE_SHEET, 'utf8'));

  it("styles every Mantine class the build's code sets, and leaves the unused components out", () => {
    expect(sheets).toHaveLength(1);
    const styled = classesOf(read(sheets[0] ?? ''));
    const needed = [...setByCode].filter((name) => styledByMantine.has(name));
    expect(needed.length).toBeGreaterThan(100);
    expect(needed.filter((name) => !styled.has(name))).toEqual([]);
    // About 40% of Mantine's classes: the components the app uses.
    expect(styled.size).toBeLessThan(styledByMantine.size * 0.6);
  });
});
