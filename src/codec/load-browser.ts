import url from '../../build/codec.wasm?url';
import type { FirmwareCodec } from './firmware/image-types.ts';
import { loadCodecUrl, loadFirmwareCodecUrl } from './load-url.ts';
import type { Codec } from './types.ts';

let loading: Promise<Codec> | undefined;

/**
 * Loads the codec in the browser from the URL Vite gives build/codec.wasm. Memoized; a failed load
 * is retried on the next call.
 *
 * @example
 * const codec = await loadCodec();
 * const frame = codec.buildFrame(0x10, 255);
 * @throws CodecLoadError naming the URL when the module cannot be fetched, compiled or used.
 */
export function loadCodec(): Promise<Codec> {
  loading ??= loadCodecUrl(url).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

let loadingFirmware: Promise<FirmwareCodec> | undefined;

/** The firmware half of the codec in the browser (its own instance). Memoized like `loadCodec`. */
export function loadFirmwareCodec(): Promise<FirmwareCodec> {
  loadingFirmware ??= loadFirmwareCodecUrl(url).catch((error: unknown) => {
    loadingFirmware = undefined;
    throw error;
  });
  return loadingFirmware;
}
