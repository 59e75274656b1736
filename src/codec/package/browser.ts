// The package's browser entry (also workers, Deno and any host with fetch): the codec from a URL.
import type { FirmwareCodec } from '../firmware/image-types.ts';
import { loadCodecUrl, loadFirmwareCodecUrl } from '../load-url.ts';
import type { Codec } from '../types.ts';

export * from './common.ts';

/**
 * Fetches, compiles and instantiates the codec module: by default the codec.wasm beside this file,
 * written as `new URL('./codec.wasm', import.meta.url)` so that bundlers which follow that pattern
 * copy the module; pass a URL when it is served from elsewhere. Each call makes a new instance;
 * load once and keep the codec.
 *
 * @example
 * import { loadCodec } from '@fleet-manager/codec';
 * const codec = await loadCodec('/assets/codec.wasm');
 * @throws CodecLoadError naming the URL when the module cannot be fetched, compiled or used.
 */
export function loadCodec(url: string | URL = new URL('./codec.wasm', import.meta.url)): Promise<Codec> {
  return loadCodecUrl(url);
}

/**
 * The firmware half of the same module (SHA-256 and the MCUboot image parser), its own instance,
 * fetched like `loadCodec`'s.
 *
 * @example
 * const firmware = await loadFirmwareCodec('/assets/codec.wasm');
 * firmware.parseImage(bytes).versionText; // '1.2.0', or a FirmwareImageError naming what is wrong
 * @throws CodecLoadError naming the URL when the module cannot be fetched, compiled or used.
 */
export function loadFirmwareCodec(
  url: string | URL = new URL('./codec.wasm', import.meta.url),
): Promise<FirmwareCodec> {
  return loadFirmwareCodecUrl(url);
}
