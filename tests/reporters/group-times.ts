import { performance } from 'node:perf_hooks';
import { stripVTControlCharacters } from 'node:util';
import type { Reporter, TestModule } from 'vitest/node';

/** One test file's share of a run: its group (the project), its tests, when it ran. */
export interface FileTime {
  group: string;
  tests: number;
  /** Its tests' and hooks' own time. */
  testMs: number;
  /** From when it started to when it ended, on the run's clock. */
  startMs: number;
  endMs: number;
}

/**
 * Each group's line of the summary, in the order the groups started: files, tests, the tests'
 * own time, and the wall time from the group's first file starting to its last one ending.
 * @example groupTimeLines([{ group: 'node', tests: 3, testMs: 1500, startMs: 0, endMs: 2000 }])
 *   // ['node  1 file, 3 tests: 1.5 s of test time, 2.0 s from first start to last end']
 */
export function groupTimeLines(files: readonly FileTime[]): string[] {
  const groups = new Map<
    string,
    { files: number; tests: number; testMs: number; start: number; end: number }
  >();
  for (const file of [...files].sort((a, b) => a.startMs - b.startMs)) {
    const group = groups.get(file.group) ?? {
      files: 0,
      tests: 0,
      testMs: 0,
      start: file.startMs,
      end: file.endMs,
    };
    group.files += 1;
    group.tests += file.tests;
    group.testMs += file.testMs;
    group.start = Math.min(group.start, file.startMs);
    group.end = Math.max(group.end, file.endMs);
    groups.set(file.group, group);
  }
  const width = Math.max(0, ...[...groups.keys()].map((name) => name.length));
  return [...groups].map(
    ([name, group]) =>
      `${name.padEnd(width)}  ${plural(group.files, 'file')}, ${plural(group.tests, 'test')}: ${seconds(group.testMs)} of test time, ${seconds(group.end - group.start)} from first start to last end`,
  );
}

const plural = (count: number, word: string) =>
  `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The heading of the lines `GroupTimes` prints after a run. */
export const GROUP_TIMES_HEADING = 'Time by group:';

/**
 * The group lines of a run's output (what `GroupTimes` printed under its heading), without their
 * indent or colours: for a summary of several runs (tests/run-suite.ts).
 * @example groupTimesIn(['…', 'Time by group:', '  node  1 file, …', '']) // ['node  1 file, …']
 */
export function groupTimesIn(output: readonly string[]): string[] {
  const lines = output.map((line) => stripVTControlCharacters(line));
  const heading = lines.lastIndexOf(GROUP_TIMES_HEADING);
  if (heading === -1) return [];
  const block: string[] = [];
  for (const line of lines.slice(heading + 1)) {
    if (!line.startsWith('  ')) break;
    block.push(line.trim());
  }
  return block;
}

/**
 * Prints, after a run, where its time went by group (node, dom, e2e), so that a slow group is
 * seen without adding up file times by hand.
 */
export default class GroupTimes implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly files: FileTime[] = [];

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.moduleId + module.project.name, performance.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const startMs = this.started.get(module.moduleId + module.project.name) ?? performance.now();
    this.files.push({
      group: module.project.name || 'tests',
      tests: [...module.children.allTests()].length,
      testMs: module.diagnostic().duration,
      startMs,
      endMs: performance.now(),
    });
  }

  onTestRunEnd(): void {
    if (this.files.length === 0) return;
    process.stdout.write(
      `\n${GROUP_TIMES_HEADING}\n${groupTimeLines(this.files)
        .map((line) => `  ${line}\n`)
        .join('')}`,
    );
  }
}
