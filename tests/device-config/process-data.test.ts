import { describe, expect, it } from 'vitest';
import { DIVISION_BY_ZERO, NOT_IN_PROGRAM, runSteps } from '../../src/device-config/process-data.ts';
import type { ProcessStep } from '../../src/device-config/process-step-schema.ts';

const run = (steps: ProcessStep[], values: Record<string, number | string> = {}) => runSteps(steps, values);

describe('ass (assemble strings)', () => {
  it('joins values and text, zero-padding numbers that ask for it', () => {
    const steps: ProcessStep[] = [
      {
        type: 'ass',
        parts: [{ ref: 'y', pad: 4 }, { text: '-' }, { ref: 'm', pad: 2 }, { text: ' ' }, { ref: 's' }],
      },
    ];
    expect(run(steps, { y: 25, m: 3, s: 'ok' })).toBe('0025-03 ok');
  });
  it('keeps the sign in front of padded negative numbers', () => {
    expect(run([{ type: 'ass', parts: [{ ref: 't', pad: 3 }] }], { t: -7 })).toBe('-007');
  });
});

describe('com (compare)', () => {
  it('gives 1 or 0 without outcomes', () => {
    expect(run([{ type: 'com', ref: 'a', op: 'gt', to: 5 }], { a: 6 })).toBe(1);
    expect(run([{ type: 'com', ref: 'a', op: 'gt', to: 5 }], { a: 5 })).toBe(0);
  });
  it('gives the first text when true and the second when false', () => {
    const step: ProcessStep = {
      type: 'com',
      ref: 'p',
      op: 'lt',
      to: 0,
      outcomes: ['Exporting', 'Importing'],
    };
    expect(run([step], { p: -1 })).toBe('Exporting');
    expect(run([step], { p: 0 })).toBe('Importing');
  });
  it('compares with another named value and compares text for equality', () => {
    expect(run([{ type: 'com', ref: 'a', op: 'le', to: { ref: 'b' } }], { a: 2, b: 2 })).toBe(1);
    expect(run([{ type: 'com', ref: 's', op: 'eq', to: 'AGM' }], { s: 'AGM' })).toBe(1);
    expect(run([{ type: 'com', ref: 's', op: 'ne', to: 'AGM' }], { s: 'AGM' })).toBe(0);
  });
  it('is n/a when ordering text', () => {
    expect(run([{ type: 'com', ref: 's', op: 'gt', to: 1 }], { s: 'x' })).toBe('n/a');
  });
});

describe('cal (arithmetic)', () => {
  it('adds, subtracts, multiplies, divides and takes the remainder', () => {
    const cal = (op: 'add' | 'sub' | 'mul' | 'div' | 'mod') =>
      run([{ type: 'cal', op, left: { ref: 'a' }, right: { num: 4 } }], { a: 10 });
    expect([cal('add'), cal('sub'), cal('mul'), cal('div'), cal('mod')]).toEqual([14, 6, 40, 2.5, 2]);
  });
  it('answers div/0 for a division or remainder by zero, never Infinity or NaN', () => {
    expect(run([{ type: 'cal', op: 'div', left: { ref: 'a' }, right: { ref: 'b' } }], { a: 3, b: 0 })).toBe(
      DIVISION_BY_ZERO,
    );
    expect(run([{ type: 'cal', op: 'mod', left: { num: 0 }, right: { num: 0 } }])).toBe(DIVISION_BY_ZERO);
  });
  it('rounds to the asked decimals and chains through $', () => {
    const steps: ProcessStep[] = [
      { type: 'cal', op: 'div', left: { ref: 'a' }, right: { ref: 'b' } },
      { type: 'cal', op: 'mul', left: { ref: '$' }, right: { num: 100 }, round: 1 },
    ];
    expect(run(steps, { a: 1, b: 3 })).toBe(33.3);
  });
  it('passes div/0 on as n/a instead of computing with text', () => {
    const steps: ProcessStep[] = [
      { type: 'cal', op: 'div', left: { num: 1 }, right: { num: 0 } },
      { type: 'cal', op: 'add', left: { ref: '$' }, right: { num: 1 } },
    ];
    expect(run(steps)).toBe('n/a');
  });
});

describe('tfm (seconds to 12-hour time)', () => {
  it.each([
    [0, '12:00 am'],
    [43200, '12:00 pm'],
    [46800, '1:00 pm'],
    [3599, '12:59 am'],
    [86399, '11:59 pm'],
  ])('%i s → %s', (seconds, text) => {
    expect(run([{ type: 'tfm', ref: 's' }], { s: seconds })).toBe(text);
  });
  it('is n/a outside one day and for text', () => {
    expect(run([{ type: 'tfm', ref: 's' }], { s: 86400 })).toBe('n/a');
    expect(run([{ type: 'tfm', ref: 's' }], { s: -1 })).toBe('n/a');
    expect(run([{ type: 'tfm', ref: 's' }], { s: 'noon' })).toBe('n/a');
  });
});

describe('cdt (date-time string to time)', () => {
  it.each([
    ['2025-03-04T13:05', '1:05 pm'],
    ['2025-03-04T00:15', '12:15 am'],
    ['2024-02-29T12:00:30', '12:00 pm'],
  ])('%s → %s', (text, time) => {
    expect(run([{ type: 'cdt', ref: 'd' }], { d: text })).toBe(time);
  });
  it('is n/a for impossible dates, bad shapes and numbers', () => {
    for (const d of ['2025-02-30T10:00', '2025-03-04T24:00', '2025-03-04 1:05', 'yesterday'])
      expect(run([{ type: 'cdt', ref: 'd' }], { d })).toBe('n/a');
    expect(run([{ type: 'cdt', ref: 'd' }], { d: 1234 })).toBe('n/a');
  });
});

describe('itd and its (minutes to time or text)', () => {
  it('itd turns minutes after midnight into 12-hour time', () => {
    expect(run([{ type: 'itd', ref: 'm' }], { m: 0 })).toBe('12:00 am');
    expect(run([{ type: 'itd', ref: 'm' }], { m: 1110 })).toBe('6:30 pm');
    expect(run([{ type: 'itd', ref: 'm' }], { m: 1440 })).toBe('n/a');
  });
  it('its turns a number of minutes into a duration', () => {
    expect(run([{ type: 'its', ref: 'm' }], { m: 45 })).toBe('45 min');
    expect(run([{ type: 'its', ref: 'm' }], { m: 125 })).toBe('2 h 05 min');
    expect(run([{ type: 'its', ref: 'm' }], { m: 0 })).toBe('0 min');
    expect(run([{ type: 'its', ref: 'm' }], { m: -5 })).toBe('n/a');
  });
});

describe('bsv (one bit)', () => {
  it('reads the asked bit, least significant first', () => {
    expect(run([{ type: 'bsv', ref: 'f', bit: 0 }], { f: 0b1001 })).toBe(1);
    expect(run([{ type: 'bsv', ref: 'f', bit: 1 }], { f: 0b1001 })).toBe(0);
    expect(run([{ type: 'bsv', ref: 'f', bit: 3, outcomes: ['On', 'Off'] }], { f: 0b1001 })).toBe('On');
  });
  it('reads the top bit of 32-bit values, signed or unsigned', () => {
    expect(run([{ type: 'bsv', ref: 'f', bit: 31 }], { f: 0xffffffff })).toBe(1);
    expect(run([{ type: 'bsv', ref: 'f', bit: 31 }], { f: -1 })).toBe(1);
    expect(run([{ type: 'bsv', ref: 'f', bit: 31 }], { f: 0x7fffffff })).toBe(0);
  });
  it('is n/a for fractions and text', () => {
    expect(run([{ type: 'bsv', ref: 'f', bit: 0 }], { f: 1.5 })).toBe('n/a');
    expect(run([{ type: 'bsv', ref: 'f', bit: 0 }], { f: 'x' })).toBe('n/a');
  });
});

describe('vfa (value to list entry)', () => {
  const list = ['Off', 'Bulk', 'Float'];
  it('picks the entry at the value', () => {
    expect(run([{ type: 'vfa', ref: 'v', list }], { v: 0 })).toBe('Off');
    expect(run([{ type: 'vfa', ref: 'v', list }], { v: 2 })).toBe('Float');
  });
  it('answers nip when the value is outside the list', () => {
    for (const v of [3, -1, 1.5]) expect(run([{ type: 'vfa', ref: 'v', list }], { v })).toBe(NOT_IN_PROGRAM);
  });
  it('answers n/a when there is no list', () => {
    expect(run([{ type: 'vfa', ref: 'v' }], { v: 0 })).toBe('n/a');
    expect(run([{ type: 'vfa', ref: 'v', list: [] }], { v: 0 })).toBe('n/a');
  });
});

describe('cts (character codes to string)', () => {
  it('drops negatives and nulls wherever they are', () => {
    const values = { a: 72, b: 0, c: 105, d: -3, e: 33 };
    expect(run([{ type: 'cts', refs: ['a', 'b', 'c', 'd', 'e'] }], values)).toBe('Hi!');
  });
  it('gives an empty string when every code is padding', () => {
    expect(run([{ type: 'cts', refs: ['a', 'b'] }], { a: 0, b: 0 })).toBe('');
  });
});
