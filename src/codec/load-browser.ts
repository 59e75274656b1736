import url from '../../build/codec.wasm?url';
import { CodecLoadError, compileCodec } from './load-error.ts';
import type { Codec } from './types.ts';
import { codecFromModule } from './wasm-load.ts';

async function load(): Promise<Codec> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw new CodecLoadError(url, `cannot be fetched (${String(cause)})`, { cause });
  }
  if (!response.ok) throw new CodecLoadError(url, `cannot be fetched: HTTP ${response.status}`);
  // compileStreaming needs the application/wasm type; a server that sends another falls back to bytes.
  const compile = response.headers.get('content-type')?.startsWith('application/wasm')
    ? () => WebAssembly.compileStreaming(response)
    : async () => WebAssembly.compile(await response.arrayBuffer());
  return compileCodec(url, compile, codecFromModule);
}

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
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
