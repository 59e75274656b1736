import { describe, expect, it } from 'vitest';
import { GROUP_TIMES_HEADING, groupTimeLines, groupTimesIn } from './group-times.ts';

describe('the time by group printed after a run', () => {
  it('adds up each group’s files, tests and test time, and spans its first start to its last end', () => {
    const lines = groupTimeLines([
      { group: 'e2e', tests: 4, testMs: 30_000, startMs: 50_000, endMs: 80_000 },
      { group: 'node', tests: 10, testMs: 2_000, startMs: 0, endMs: 2_500 },
      { group: 'node', tests: 1_200, testMs: 6_000, startMs: 1_000, endMs: 9_000 },
      { group: 'e2e', tests: 1, testMs: 5_000, startMs: 80_000, endMs: 85_000 },
    ]);
    expect(lines).toEqual([
      'node  2 files, 1,210 tests: 8.0 s of test time, 9.0 s from first start to last end',
      'e2e   2 files, 5 tests: 35.0 s of test time, 35.0 s from first start to last end',
    ]);
  });

  it('says one file and one test in the singular, and nothing for a run without files', () => {
    expect(groupTimeLines([{ group: 'dom', tests: 1, testMs: 100, startMs: 0, endMs: 160 }])).toEqual([
      'dom  1 file, 1 test: 0.1 s of test time, 0.2 s from first start to last end',
    ]);
    expect(groupTimeLines([])).toEqual([]);
  });

  it('are read back from a run’s output, colours and indent gone, for the summary of both lanes', () => {
    const output = [
      ' \x1b[32m✓\x1b[39m tests/a.test.ts (1 test) 5ms',
      '',
      GROUP_TIMES_HEADING,
      '  \x1b[1mdom\x1b[22m   1 file, 1 test: 0.1 s of test time, 0.2 s from first start to last end',
      '  node  2 files, 3 tests: 1.0 s of test time, 0.9 s from first start to last end',
      '',
      'after',
    ];
    expect(groupTimesIn(output)).toEqual([
      'dom   1 file, 1 test: 0.1 s of test time, 0.2 s from first start to last end',
      'node  2 files, 3 tests: 1.0 s of test time, 0.9 s from first start to last end',
    ]);
    expect(groupTimesIn(['a run that failed before its end'])).toEqual([]);
  });
});
