import { describe, expect, it } from 'vitest';
import { signalText } from '../../src/features/devices/configure/signal-text.ts';

describe('the signal strength a person reads', () => {
  it('is N/A without a device or a reading', () => {
    expect(signalText(undefined)).toBe('N/A');
    expect(signalText(Number.NaN)).toBe('N/A');
  });

  it('is N/A for a positive reading, which no radio gives', () => {
    expect(signalText(3)).toBe('N/A');
  });

  it('is the value followed by " dBa" otherwise', () => {
    expect(signalText(-67)).toBe('-67 dBa');
    expect(signalText(0)).toBe('0 dBa');
  });
});
