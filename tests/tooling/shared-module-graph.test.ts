import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The node group runs with `isolate: false` (vitest.config.ts): the files of one worker share a
// module graph and a process. That is sound only while no file changes what the next one imports
// or finds in the process. These are the ways a file could, each with how it must be undone.

const ROOT = new URL('../..', import.meta.url).pathname;

interface Rule {
  /** What the file does that would outlive it. */
  found: RegExp;
  /** What undoes it in the same file; without it the file leaks. Absent: never allowed. */
  undone?: RegExp;
  why: string;
}

const RULES: Rule[] = [
  { found: /\bvi\.(do)?mock\(/, why: 'mocks a module, which every later file would import mocked' },
  {
    found: /\bvi\.stubEnv\(/,
    undone: /\bvi\.unstubAllEnvs\(/,
    why: 'stubs the environment without unstubbing it',
  },
  {
    found: /\bvi\.stubGlobal\(/,
    undone: /\bvi\.unstubAllGlobals\(/,
    why: 'stubs a global without unstubbing it',
  },
  {
    found: /\bvi\.useFakeTimers\(/,
    undone: /\bvi\.useRealTimers\(/,
    why: 'fakes timers without restoring them',
  },
  {
    found: /\bprocess\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=)|\bdelete process\.env\b/,
    why: 'changes the process environment',
  },
];

/** Why a test source would leak into the files after it in the same worker; empty if it would not. */
function leaksOf(source: string): string[] {
  return RULES.filter((rule) => rule.found.test(source) && !rule.undone?.test(source)).map(
    (rule) => rule.why,
  );
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('files that share a module graph', () => {
  it('names each way a source would outlive its file, and accepts it undone', () => {
    expect(leaksOf("vi.mock('../server/clock.ts')")).toEqual([
      'mocks a module, which every later file would import mocked',
    ]);
    expect(leaksOf("vi.stubGlobal('fetch', f)")).toEqual(['stubs a global without unstubbing it']);
    expect(leaksOf("vi.stubGlobal('fetch', f); afterEach(() => vi.unstubAllGlobals())")).toEqual([]);
    expect(leaksOf('vi.useFakeTimers()')).toEqual(['fakes timers without restoring them']);
    expect(leaksOf("vi.stubEnv('TZ', 'UTC')")).toEqual(['stubs the environment without unstubbing it']);
    expect(leaksOf("process.env.TZ = 'UTC'")).toEqual(['changes the process environment']);
    expect(leaksOf("process.env['PORT'] ??= '1'")).toEqual(['changes the process environment']);
    expect(leaksOf('delete process.env.PORT')).toEqual(['changes the process environment']);
    expect(leaksOf("if (process.env.TZ === 'UTC') run()")).toEqual([]);
  });

  it('finds none in the node group, whose files run in one process after each other', () => {
    // The e2e and dom groups isolate their files; the global set-ups run in vitest's own process.
    const shared = sourcesUnder(join(ROOT, 'tests')).filter(
      (path) => !/\/tests\/(e2e|app)\/|global-setup|migrated-database|run-suite/.test(path),
    );
    const leaks = shared.flatMap((path) =>
      leaksOf(readFileSync(path, 'utf8')).map((why) => `${relative(ROOT, path)}: ${why}`),
    );
    // This file names the patterns it looks for, so it is the one source left out.
    expect(leaks.filter((leak) => !leak.startsWith('tests/tooling/shared-module-graph'))).toEqual([]);
  });
});
