import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(ROOT, 'server');

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

function serverFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each line of the server that decides access itself, as `file:line: what`. */
function inlineRoleChecks(files: { name: string; text: string }[]): string[] {
  return files.flatMap(({ name, text }) =>
    text
      .split('\n')
      .flatMap((line, index) =>
        INLINE_ROLE_CHECKS.filter(([, pattern]) => pattern.test(line)).map(
          ([what]) => `${name}:${index + 1}: ${what}: ${line.trim()}`,
        ),
      ),
  );
}

describe('one access policy on the server', () => {
  it('finds no role compared anywhere on the server outside the policy', () => {
    const files = serverFiles(SERVER)
      .map((path) => ({ name: relative(ROOT, path).split('\\').join('/'), path }))
      .filter(({ name }) => !DATA_FILES.test(name))
      .map(({ name, path }) => ({ name, text: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(inlineRoleChecks(files)).toEqual([]);
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
