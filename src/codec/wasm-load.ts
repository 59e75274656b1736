import type { Codec } from './types.ts';
import { createWasmCodec } from './wasm-codec.ts';
import { instantiateExports } from './wasm-exports.ts';

/** Instantiates a compiled codec module and wraps it in the typed face. */
export async function codecFromModule(module: WebAssembly.Module): Promise<Codec> {
  return createWasmCodec(await instantiateExports(module));
}
