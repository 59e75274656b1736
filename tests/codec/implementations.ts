import { loadCodec } from '../../src/codec/load-node.ts';
import { referenceCodec } from '../../src/codec/reference-codec.ts';
import type { Codec } from '../../src/codec/types.ts';
import { CodecError } from '../../src/codec/types.ts';

/** Both implementations, for tests that must hold for each. */
export async function implementations(): Promise<[string, Codec][]> {
  return [
    ['wasm', await loadCodec()],
    ['reference', referenceCodec],
  ];
}

export type Outcome<T> = { ok: T } | { code: string; message: string };

/** What a caller sees from a call: its result, or the codec error's code and message. */
export function outcome<T>(call: () => T): Outcome<T> {
  try {
    return { ok: call() };
  } catch (error) {
    if (error instanceof CodecError) return { code: error.code, message: error.message };
    throw error;
  }
}

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
export const bytes = (text: string): Uint8Array =>
  new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
export const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);
