import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type BufferDescriptor, type Codec, CodecError } from '../../src/codec/types.ts';
import { bytes, hex } from '../codec/implementations.ts';

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8')) as T;

export const crc = load<{ name: string; input: string; crc: string; wire: string }[]>('./crc.json');
export const frames = load<{
  built: { name: string; opcode: number; size: number; payload: string; frame: string }[];
  rejected: { name: string; frame: string; expectedSize: number | null; error: string }[];
}>('./frames.json');
export const fields = load<{
  valid: { buffer: BufferDescriptor; value: number; bytes: string }[];
  rejected: { buffer: BufferDescriptor; value: number; error: string }[];
}>('./fields.json');
export const passwords = load<{
  valid: { password: string; codes: number[] }[];
  rejected: { password: string; error: string }[];
}>('./passwords.json');

/** What a call threw (undefined when it returned). */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * Checks every vector in tests/vectors against a codec. `errorClass` is the CodecError the codec
 * throws: the repository's, or that of a codec built elsewhere (the installed package's own).
 */
export function describeVectors(
  label: string,
  codec: Codec,
  errorClass: typeof CodecError = CodecError,
): void {
  const rejects = (call: () => unknown, code: string) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({ code });
  };

  describe(`every vector in tests/vectors (${label})`, () => {
    it('includes the published check values', () => {
      expect(crc.map((v) => v.crc)).toEqual(expect.arrayContaining(['4b37', 'cdc5']));
    });

    it.each(crc)('crc.json: $name', (v) => {
      const value = codec.crc16(bytes(v.input));
      expect(value.toString(16).padStart(4, '0')).toBe(v.crc);
      expect(hex(new Uint8Array([value & 0xff, value >> 8]))).toBe(v.wire);
    });

    it.each(frames.built)('frames.json builds and verifies: $name', (v) => {
      const frame = codec.buildFrame(v.opcode, v.size, bytes(v.payload));
      expect(hex(frame)).toBe(v.frame);
      expect(() => codec.verifyFrame(bytes(v.frame), v.size)).not.toThrow();
    });

    it.each(frames.rejected)('frames.json rejects: $name', (v) => {
      rejects(() => codec.verifyFrame(bytes(v.frame), v.expectedSize ?? undefined), v.error);
    });

    it(`fields.json: all ${fields.valid.length} field vectors encode to their bytes and decode back`, () => {
      for (const v of fields.valid) {
        const view = new Uint8Array(254);
        codec.writeField(view, v.buffer, v.value);
        const width = v.buffer.length / 8;
        expect(hex(view.subarray(v.buffer.position, v.buffer.position + width))).toBe(v.bytes);
        expect(codec.readField(view, v.buffer)).toBe(v.value);
      }
    });

    it.each(fields.rejected)('fields.json rejects $value in $buffer with $error', (v) => {
      rejects(() => codec.writeField(new Uint8Array(254), v.buffer, v.value), v.error);
    });

    it('passwords.json: codes and rejections', () => {
      for (const v of passwords.valid) expect(codec.passwordCodes(v.password)).toEqual(v.codes);
      for (const v of passwords.rejected) rejects(() => codec.passwordCodes(v.password), v.error);
    });
  });
}
