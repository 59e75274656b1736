import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FirmwareCodec } from './firmware/image-types.ts';
import { createWasmFirmware } from './firmware/wasm-firmware.ts';
import { CodecLoadError, compileCodec } from './load-error.ts';
import type { Codec } from './types.ts';
import { instantiateExports } from './wasm-exports.ts';
import { codecFromModule } from './wasm-load.ts';

/** Where `npm run build:wasm` writes the release module. */
export const CODEC_WASM_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../../build/codec.wasm');

/** A module file's bytes. @throws CodecLoadError naming the file when it cannot be read. */
async function moduleBytes(path: string): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
    throw new CodecLoadError(path, `cannot be read (${code}); run npm run build:wasm`, { cause });
  }
}

/** `load`, run once and shared by every caller; a failed load is forgotten, so a later call can retry. */
function shared<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/**
 * Loads a codec module from a file, without memoizing (tests, tools that ship their own build).
 *
 * @example
 * const codec = await loadCodecFile('build/codec.debug.wasm');
 * @throws CodecLoadError naming the file when it is missing, not WebAssembly, or lacks an export.
 */
export async function loadCodecFile(path: string): Promise<Codec> {
  const bytes = await moduleBytes(path);
  return compileCodec(path, () => WebAssembly.compile(bytes), codecFromModule);
}

/**
 * Loads build/codec.wasm from disk (Node, vitest in node or jsdom, the CLI). Memoized: every
 * caller shares one instance. A failed load is not memoized, so a later call can retry.
 *
 * @example
 * const codec = await loadCodec();
 * codec.crc16(new TextEncoder().encode('123456789')); // 0x4b37
 * @throws CodecLoadError when the module is missing, broken or stale (run `npm run build:wasm`).
 */
export const loadCodec: () => Promise<Codec> = shared(() => loadCodecFile(CODEC_WASM_PATH));

/** Loads a module file's firmware half (SHA-256, MCUboot images), without memoizing. */
export async function loadFirmwareCodecFile(path: string): Promise<FirmwareCodec> {
  const bytes = await moduleBytes(path);
  return compileCodec(
    path,
    () => WebAssembly.compile(bytes),
    async (module) => createWasmFirmware(await instantiateExports(module)),
  );
}

/**
 * The firmware half of build/codec.wasm (its own instance, beside the frame codec's). Memoized
 * like `loadCodec`.
 *
 * @example
 * const firmware = await loadFirmwareCodec();
 * firmware.parseImage(bytes).versionText; // '1.2.0'
 * @throws CodecLoadError when the module is missing, broken or stale (run `npm run build:wasm`).
 */
export const loadFirmwareCodec: () => Promise<FirmwareCodec> = shared(() =>
  loadFirmwareCodecFile(CODEC_WASM_PATH),
);
