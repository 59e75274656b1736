import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(ROOT, 'server');
const APP = join(ROOT, 'src');

/** Seeds and migrations write roles as data; they decide nothing about a caller. */
const DATA_FILES = /^server\/db\/(seed|migration)/;

/**
 * What a rule of who may do what looks like when a file writes it itself instead of asking
 * contracts/access-policy.ts: a role compared, a list of roles searched, a role list of its own.
 */
const INLINE_ROLE_CHECKS: [string, RegExp][] = [
  ['compares a role', /\brole\s*[!=]==(?!\s*undefined)|[!=]==\s*\w*\.?role\b/],
  ['compares with a user role', /[!=]==\s*'(admin|installer|owner)'|'(admin|installer|owner)'\s*[!=]==/],
  [
    'searches roles for a site role',
    /roles?\??\.(includes|some|indexOf)\(\s*'(owner|installer|viewer|configurator)'/,
  ],
  ['keeps a role list of its own', /\b[A-Z_]*ROLES?\b\s*[:=]|\b(MANAGERS|SITE_MANAGERS|SITE_EDITORS)\b/],
  ['lists roles allowed', /\.includes\(\s*\w+\.role\b/],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const read = (path: string) => ({
  name: relative(ROOT, path).split('\\').join('/'),
  text: readFileSync(path, 'utf8'),
});

/**
 * In the app, what decides who may do what about a user role: a user role compared, or a list
 * of them searched. (The app's other "roles", a counter's or a site's in the site-access table,
 * are data it shows.)
 */
const APP_ROLE_CHECKS = INLINE_ROLE_CHECKS.filter(([what]) =>
  ['compares with a user role', 'lists roles allowed'].includes(what),
);

/** Each line of the server that decides access itself, as `file:line: what`. */
function inlineRoleChecks(files: { name: string; text: string }[], checks = INLINE_ROLE_CHECKS): string[] {
  return files.flatMap(({ name, text }) =>
    text
      .split('\n')
      .flatMap((line, index) =>
        checks
          .filter(([, pattern]) => pattern.test(line))
          .map(([what]) => `${name}:${index + 1}: ${what}: ${line.trim()}`),
      ),
  );
}

describe('one access policy on the server', () => {
  it('finds no role compared anywhere on the server outside the policy', () => {
    const files = sourceFiles(SERVER)
      .map(read)
      .filter(({ name }) => !DATA_FILES.test(name));
    expect(files.length).toBeGreaterThan(100);
    expect(inlineRoleChecks(files)).toEqual([]);
  });

  it('finds no user role compared in the app either: its screens ask the policy too', () => {
    const files = sourceFiles(APP).map(read);
    expect(files.length).toBeGreaterThan(100);
    expect(inlineRoleChecks(files, APP_ROLE_CHECKS)).toEqual([]);
  });

  it('would find each way of writing a rule inline', () => {
    const samples = [
      "if (caller.role !== 'admin') throw forbidden();",
      "const admin = viewer.role === 'admin';",
      "if ('owner' === target.role) return;",
      "if (!row.roles.includes('installer')) throw forbidden();",
      "const ACKNOWLEDGING_ROLES = ['owner', 'installer'];",
      'requireRole(MANAGERS, "Owners cannot")',
      "if (!['admin', 'installer'].includes(caller.role)) throw forbidden();",
    ];
    const found = inlineRoleChecks(samples.map((text, index) => ({ name: `sample${index}`, text })));
    expect([...new Set(found.map((line) => line.split(':')[0]))]).toEqual(
      samples.map((_, index) => `sample${index}`),
    );
  });
});
