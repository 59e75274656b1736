// Build-time only (Vite's build, in Node).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import postcss from 'postcss';
import { filesUnder } from './files-under.ts';

/** Mantine's generated class names (`m_` and eight hex digits), one per styled part. */
export const MANTINE_CLASS = /\bm_[0-9a-f]{8}\b/g;
/** A named import from Mantine's core package, over several lines too. */
const CORE_IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"]@mantine\/core['"]/g;
/** The relative imports and re-exports of one of Mantine's own modules. */
const RELATIVE_IMPORT = /(?:import|export)\s*(?:[^'";]*?\sfrom\s*)?["'](\.[^"']+)["']/g;

/** The names a source file imports from `@mantine/core`, type-only ones left out. */
export function namesImportedFromCore(source: string): string[] {
  return [...source.matchAll(CORE_IMPORT)].flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '' && !part.startsWith('type '))
      .map((part) => part.split(/\s+as\s+/)[0]?.trim() ?? ''),
  );
}

/**
 * Every Mantine class the named exports of `@mantine/core` can set: the classes in the modules
 * each export is defined in and in every module those import, followed through Mantine's own
 * relative imports. A superset of what the bundle holds (tree-shaking only removes), so a rule
 * for any class the app can set is kept.
 */
export function classesOfCoreExports(coreEsm: string, names: Iterable<string>): Set<string> {
  const index = readFileSync(join(coreEsm, 'index.mjs'), 'utf8');
  // Each export's module; '' for one Mantine takes from another package (no classes of its own).
  const moduleOf = new Map<string, string>();
  for (const match of index.matchAll(/import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    const from = match[2] ?? '';
    for (const name of (match[1] ?? '').split(',')) {
      const local = name
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (local) moduleOf.set(local, from.startsWith('.') ? resolve(coreEsm, from) : '');
    }
  }
  const seen = new Set<string>();
  const classes = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const name of source.match(MANTINE_CLASS) ?? []) classes.add(name);
    for (const match of source.matchAll(RELATIVE_IMPORT)) visit(resolve(dirname(file), match[1] ?? ''));
  };
  for (const name of names) {
    const file = moduleOf.get(name);
    if (file === undefined) throw new Error(`@mantine/core has no export "${name}" in its index`);
    if (file) visit(file);
  }
  return classes;
}

/**
 * The Mantine classes the app can set: those of every `@mantine/core` export its sources import
 * (`srcDir`), and of those the other Mantine packages it uses import (notifications builds on
 * `Notification`).
 */
export function classesTheAppCanSet(srcDir: string, mantineDir: string): Set<string> {
  const sources = [
    ...filesUnder(srcDir, /\.tsx?$/),
    ...readdirSync(mantineDir)
      .filter((name) => name !== 'core' && existsSync(join(mantineDir, name, 'esm')))
      .flatMap((name) => filesUnder(join(mantineDir, name, 'esm'), /\.mjs$/)),
  ];
  const names = new Set(sources.flatMap((file) => namesImportedFromCore(readFileSync(file, 'utf8'))));
  return classesOfCoreExports(join(mantineDir, 'core', 'esm'), names);
}

/**
 * `css` without the rules no element can match: a selector naming a Mantine class outside
 * `used` matches nothing (the class is set by no code of the app), so it goes from its rule, and
 * a rule left with none goes, as does an at-rule left empty. Rules naming no Mantine class (the
 * variables, the baseline) stay whole.
 * @example keepUsedMantineRules('.m_00000001{}.m_00000002,a{}', new Set(['m_00000001'])) // '.m_00000001{}a{}'
 */
export function keepUsedMantineRules(css: string, used: ReadonlySet<string>): string {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    const selectors = rule.selectors.filter((selector) =>
      (selector.match(MANTINE_CLASS) ?? []).every((name) => used.has(name)),
    );
    if (selectors.length === 0) rule.remove();
    else if (selectors.length < rule.selectors.length) rule.selectors = selectors;
  });
  let emptied = true;
  while (emptied) {
    emptied = false;
    root.walkAtRules((atRule) => {
      if (atRule.nodes && atRule.nodes.length === 0) {
        atRule.remove();
        emptied = true;
      }
    });
  }
  return root.toString();
}
