// `npm run lint` keeps the layers: the project's own biome.json, run over a small tree laid out like
// the project (tests/tooling/lint-fixture/, left out of the normal lint run), must report every
// import circle and forbidden import in it, and nothing else.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const BIOME = join(ROOT, 'node_modules', '.bin', 'biome');

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string };
}

interface LintRun {
  status: number | null;
  diagnostics: Diagnostic[];
}

let scratch = '';
let run: LintRun;

/** The project's lint configuration, made to read the fixture (which the project's own run skips). */
function projectConfig(): unknown {
  const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
  delete config.$schema;
  config.vcs = { enabled: false };
  config.files = { ignoreUnknown: true, includes: ['**'] };
  return config;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'lint-layers-'));
  cpSync(join(import.meta.dirname, 'lint-fixture'), scratch, { recursive: true });
  writeFileSync(join(scratch, 'biome.json'), JSON.stringify(projectConfig(), null, 2));
  const result = spawnSync(BIOME, ['lint', '--reporter=json', '--max-diagnostics=none', '.'], {
    cwd: scratch,
    encoding: 'utf8',
  });
  const report = JSON.parse(result.stdout) as { diagnostics: Diagnostic[] };
  run = {
    status: result.status,
    diagnostics: report.diagnostics.filter((d) => d.category.startsWith('lint/')),
  };
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** `file rule` for every lint finding, sorted: the whole verdict in one comparable list. */
const findings = () =>
  run.diagnostics.map((d) => `${d.location.path.replaceAll('\\', '/')} ${d.category}`).sort();

describe('npm run lint', () => {
  it('fails on an import circle or a forbidden import', () => {
    expect(run.status).not.toBe(0);
  });

  it('reports exactly the circle and the forbidden imports, and passes the allowed ones', () => {
    expect(findings()).toEqual(
      [
        // A feature imports another feature, from its root and from a sub-folder.
        'src/features/alpha/alpha-screen.ts lint/style/noRestrictedImports',
        'src/features/beta/parts/beta-part.ts lint/style/noRestrictedImports',
        // A shared component imports a feature.
        'src/components/uses-feature.ts lint/style/noRestrictedImports',
        // The app imports the server; the server imports the app's views (the codec is allowed).
        'src/app/uses-server.ts lint/style/noRestrictedImports',
        'server/route.ts lint/style/noRestrictedImports',
        // A machine imports a feature (its imports of contracts/ and src/codec/ pass).
        'machines/thing/thing-machine.ts lint/style/noRestrictedImports',
        // Both ends of the circle, although one of them imports a type only.
        'src/components/cycle-first.ts lint/suspicious/noImportCycles',
        'src/components/cycle-second.ts lint/suspicious/noImportCycles',
      ].sort(),
    );
  });

  it('says which rule of the house an import breaks', () => {
    const messageOf = (path: string) => run.diagnostics.find((d) => d.location.path === path)?.message;
    expect(messageOf('src/features/alpha/alpha-screen.ts')).toMatch(/never imports another feature/);
    expect(messageOf('src/components/uses-feature.ts')).toMatch(/never import one/);
    expect(messageOf('machines/thing/thing-machine.ts')).toMatch(/never imports the app/);
    expect(messageOf('server/route.ts')).toMatch(/server never imports the app/);
  });
});
