import { describe, expect, it } from 'vitest';
import {
  LOG_LIMIT,
  LOG_STORAGE_KEY,
  type LogEntry,
  loadStoredLog,
  logFileText,
  parseLogFile,
  prepend,
  storeLog,
} from '../../machines/remote-debugger/exchange-log.ts';

const entry = (n: number): LogEntry => ({
  id: `e${n}`,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  serialNumber: 'HX5K-24-000133',
  path: 'demo',
  outcome: 'answered',
  message: `exchange ${n}`,
  sent: [0x21, n % 256],
  answer: [0x21, 0],
});

/** A log filled by `count` exchanges, one after the other. */
function filled(count: number): LogEntry[] {
  let log: LogEntry[] = [];
  for (let n = 1; n <= count; n += 1) log = prepend(log, entry(n));
  return log;
}

describe('the Remote Debugger log', () => {
  it('keeps the newest exchange first and drops the oldest beyond the limit', () => {
    const log = filled(LOG_LIMIT + 25);
    expect(log).toHaveLength(LOG_LIMIT);
    expect(log[0]?.id).toBe(`e${LOG_LIMIT + 25}`);
    expect(log.at(-1)?.id).toBe('e26');
  });

  it('reads back a full log it saved, entry for entry', () => {
    const log = filled(LOG_LIMIT);
    expect(parseLogFile(logFileText(log))).toEqual({ ok: true, entries: log });
  });

  it('refuses a file with more entries than the limit, naming where', () => {
    const file = JSON.parse(logFileText(filled(LOG_LIMIT))) as { entries: LogEntry[] };
    file.entries.push(entry(0));
    const loaded = parseLogFile(JSON.stringify(file));
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.message).toMatch(/^This file is not a saved debugger log \(at entries\)/);
  });

  it('refuses text that is not JSON, and a JSON file that is not a log', () => {
    expect(parseLogFile('not json')).toEqual({
      ok: false,
      message: 'This file is not JSON, so it is not a saved debugger log.',
    });
    const other = parseLogFile(JSON.stringify({ kind: 'something-else', version: 1, entries: [] }));
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.message).toContain('(at kind)');
  });

  it('starts empty from an unreadable stored log, and a full storage only loses persistence', () => {
    expect(loadStoredLog({ getItem: () => '{"kind":"broken"' })).toEqual([]);
    expect(loadStoredLog({ getItem: () => null })).toEqual([]);
    const full = {
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
    };
    expect(() => storeLog(full, filled(3))).not.toThrow();
    const kept = new Map<string, string>();
    storeLog({ setItem: (key, value) => kept.set(key, value) }, filled(3));
    expect(loadStoredLog({ getItem: (key) => kept.get(key) ?? null }).map((e) => e.id)).toEqual([
      'e3',
      'e2',
      'e1',
    ]);
    expect([...kept.keys()]).toEqual([LOG_STORAGE_KEY]);
  });
});
