import type { FirmwareCodec } from './firmware/image-types.ts';
import { createWasmFirmware } from './firmware/wasm-firmware.ts';
import { CodecLoadError, compileCodec } from './load-error.ts';
import type { Codec } from './types.ts';
import { instantiateExports } from './wasm-exports.ts';
import { codecFromModule } from './wasm-load.ts';

/**
 * Fetches a codec module from a URL, compiles and instantiates it, without memoizing (the app's
 * loader and the package's browser entry both build on it).
 *
 * @example
 * const codec = await loadCodecUrl(new URL('./codec.wasm', import.meta.url));
 * @throws CodecLoadError naming the URL when the module cannot be fetched, compiled or used.
 */
export async function loadCodecUrl(url: string | URL): Promise<Codec> {
  const source = String(url);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw new CodecLoadError(source, `cannot be fetched (${String(cause)})`, { cause });
  }
  if (!response.ok) throw new CodecLoadError(source, `cannot be fetched: HTTP ${response.status}`);
  // compileStreaming needs the application/wasm type; a server that sends another falls back to bytes.
  const compile = response.headers.get('content-type')?.startsWith('application/wasm')
    ? () => WebAssembly.compileStreaming(response)
    : async () => WebAssembly.compile(await response.arrayBuffer());
  return compileCodec(source, compile, codecFromModule);
}

/**
 * The firmware half (SHA-256, MCUboot images) of a codec module at a URL, its own instance.
 * @throws CodecLoadError naming the URL when the module cannot be fetched, compiled or used.
 */
export async function loadFirmwareCodecUrl(url: string | URL): Promise<FirmwareCodec> {
  const source = String(url);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw new CodecLoadError(source, `cannot be fetched (${String(cause)})`, { cause });
  }
  if (!response.ok) throw new CodecLoadError(source, `cannot be fetched: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  return compileCodec(
    source,
    () => WebAssembly.compile(bytes),
    async (module) => createWasmFirmware(await instantiateExports(module)),
  );
}
