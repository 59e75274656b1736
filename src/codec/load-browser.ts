import url from '../../build/codec.wasm?url';
import type { Codec } from './types.ts';
import { codecFromModule } from './wasm-load.ts';

let loading: Promise<Codec> | undefined;

async function compile(): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot fetch the codec module ${url}: HTTP ${response.status}`);
  // compileStreaming needs the application/wasm type; a server that sends another falls back to bytes.
  if (response.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Loads the codec in the browser from the URL Vite gives build/codec.wasm. Memoized; a failed load
 * is retried on the next call.
 *
 * @example
 * const codec = await loadCodec();
 * const frame = codec.buildFrame(0x10, 255);
 * @throws Error when the module cannot be fetched or compiled.
 */
export function loadCodec(): Promise<Codec> {
  loading ??= compile()
    .then(codecFromModule)
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}
