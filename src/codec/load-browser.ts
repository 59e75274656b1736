import url from '../../build/codec.wasm?url';
import { loadCodecUrl } from './load-url.ts';
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
