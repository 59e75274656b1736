import { describe, expect, it } from 'vitest';
import { implementations, outcome } from './implementations.ts';

describe.each(await implementations())('passwords (%s)', (_name, codec) => {
  it('gives 16 character codes padded with 0', () => {
    expect(codec.passwordCodes('Ab1')).toEqual([65, 98, 49, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(codec.passwordCodes('')).toEqual(new Array(16).fill(0));
    expect(codec.passwordCodes('ÿ'.repeat(16))).toEqual(new Array(16).fill(255));
  });

  it('refuses a password longer than 16 characters', () => {
    expect(outcome(() => codec.passwordCodes('x'.repeat(17)))).toEqual({
      code: 'password-too-long',
      message: 'password has 17 characters; at most 16 are allowed',
    });
  });

  it('refuses a character above code 255 and names it', () => {
    expect(outcome(() => codec.passwordCodes('pa€s'))).toEqual({
      code: 'password-character',
      message: 'password character 3 (€, code 8364) is above code 255',
    });
  });

  it('calls passwords equal only with the same length and content', () => {
    const a = codec.passwordCodes('secret');
    expect(codec.passwordsEqual(a, codec.passwordCodes('secret'))).toBe(true);
    expect(codec.passwordsEqual(a, codec.passwordCodes('secreT'))).toBe(false);
    expect(codec.passwordsEqual(a, a.slice(0, 15))).toBe(false);
    expect(codec.passwordsEqual([], [])).toBe(true);
  });
});
