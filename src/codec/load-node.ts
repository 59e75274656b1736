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

/**
 * Loads a codec module from a file, without memoizing (tests, tools that ship their own build).
 *
 * @example
 * const codec = await loadCodecFile('build/codec.debug.wasm');
 * @throws CodecLoadError naming the file when it is missing, not WebAssembly, or lacks an export.
 */
export async function loadCodecFile(path: string): Promise<Codec> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
    throw new CodecLoadError(path, `cannot be read (${code}); run npm run build:wasm`, { cause });
  }
  return compileCodec(path, () => WebAssembly.compile(bytes), codecFromModule);
}

let loading: Promise<Codec> | undefined;

/**
 * Loads build/codec.wasm from disk (Node, vitest in node or jsdom, the CLI). Memoized: every
 * caller shares one instance. A failed load is not memoized, so a later call can retry.
 *
 * @example
 * const codec = await loadCodec();
 * codec.crc16(new TextEncoder().encode('123456789')); // 0x4b37
 * @throws CodecLoadError when the module is missing, broken or stale (run `npm run build:wasm`).
 */
export function loadCodec(): Promise<Codec> {
  loading ??= loadCodecFile(CODEC_WASM_PATH).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Loads a module file's firmware half (SHA-256, MCUboot images), without memoizing. */
export async function loadFirmwareCodecFile(path: string): Promise<FirmwareCodec> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
    throw new CodecLoadError(path, `cannot be read (${code}); run npm run build:wasm`, { cause });
  }
  return compileCodec(
    path,
    () => WebAssembly.compile(bytes),
    async (module) => createWasmFirmware(await instantiateExports(module)),
  );
}

let loadingFirmware: Promise<FirmwareCodec> | undefined;

/**
 * The firmware half of build/codec.wasm (its own instance, beside the frame codec's). Memoized
 * like `loadCodec`.
 *
 * @example
 * const firmware = await loadFirmwareCodec();
 * firmware.parseImage(bytes).versionText; // '1.2.0'
 * @throws CodecLoadError when the module is missing, broken or stale (run `npm run build:wasm`).
 */
export function loadFirmwareCodec(): Promise<FirmwareCodec> {
  loadingFirmware ??= loadFirmwareCodecFile(CODEC_WASM_PATH).catch((error: unknown) => {
    loadingFirmware = undefined;
    throw error;
  });
  return loadingFirmware;
}
