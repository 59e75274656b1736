import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogSummary } from '../../server/logging/log-summary.ts';
import { boundCloseReason } from '../../server/service-comms/close-socket.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('a summarised log', () => {
  it('writes the first line of a kind, counts the rest, and writes the count once the minute ends', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const log = new LogSummary((line) => lines.push(line));
    for (let i = 0; i < 1000; i++) log.note('refused hellos', `refused device ${i}`);
    log.note('junk', 'ignored a message');
    expect(lines).toEqual(['refused device 0', 'ignored a message']);
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual([
      'refused device 0',
      'ignored a message',
      'refused hellos: 999 more in the last 60 s (not logged one by one)',
    ]);
    // A new minute starts over: its first line is written as it comes.
    log.note('refused hellos', 'refused device 1000');
    expect(lines.at(-1)).toBe('refused device 1000');
    log.close();
    expect(lines).toHaveLength(4);
  });
});

describe('a WebSocket close reason', () => {
  it('is cut to 123 bytes of UTF-8 on a character boundary', () => {
    const reason = boundCloseReason(`this serial number is a ${'€'.repeat(40)}`);
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    expect(reason).not.toContain('\ufffd');
    expect(boundCloseReason('wrong secret')).toBe('wrong secret');
    expect(Buffer.byteLength(boundCloseReason('😀'.repeat(40)))).toBe(120);
  });
});
