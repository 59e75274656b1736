import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Codec } from './types.ts';
import { codecFromModule } from './wasm-load.ts';

/** Where `npm run build:wasm` writes the release module. */
export const CODEC_WASM_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../../build/codec.wasm');

let loading: Promise<Codec> | undefined;

async function load(): Promise<Codec> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await readFile(CODEC_WASM_PATH));
  } catch (cause) {
    throw new Error(`cannot read ${CODEC_WASM_PATH}: run npm run build:wasm`, { cause });
  }
  return codecFromModule(await WebAssembly.compile(bytes));
}

/**
 * Loads build/codec.wasm from disk (Node, vitest in node or jsdom, the CLI). Memoized: every
 * caller shares one instance. A failed load is not memoized, so a later call can retry.
 *
 * @example
 * const codec = await loadCodec();
 * codec.crc16(new TextEncoder().encode('123456789')); // 0x4b37
 * @throws Error when the module is missing or stale (run `npm run build:wasm`).
 */
export function loadCodec(): Promise<Codec> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
