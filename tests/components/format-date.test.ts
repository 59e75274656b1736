import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime } from '../../src/components/format-date.ts';

describe('one date formatter', () => {
  it('writes dates with a month name and times in 12-hour form with AM/PM (specification §9)', () => {
    const night = new Date(2026, 10, 25, 1, 57, 27);
    const afternoon = new Date(2026, 10, 25, 13, 5, 0);
    expect(formatDate(night)).toBe('Nov 25, 2026');
    expect(formatDateTime(night)).toBe('Nov 25, 2026, 1:57 AM');
    expect(formatTime(afternoon)).toBe('1:05 PM');
    expect(formatTime(afternoon, { seconds: true })).toBe('1:05:00 PM');
    expect(formatDateTime(night.toISOString())).toBe('Nov 25, 2026, 1:57 AM');
    expect(formatDate(night.getTime())).toBe('Nov 25, 2026');
  });
});
