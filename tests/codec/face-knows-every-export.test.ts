// The typed face takes its export list from what asc writes (build/codec.d.ts): the type-check
// fails when assembly/index.ts gains or loses an export the face does not list. This holds the
// same list to the modules themselves, release and debug, as they were built.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODEC_WASM_PATH } from '../../src/codec/load-node.ts';
import { CODEC_EXPORT_NAMES } from '../../src/codec/wasm-exports.ts';

const exportsOf = (path: string) =>
  WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(path))).map((entry) => entry.name);

describe('the typed face of the codec', () => {
  it.each([
    ['release', CODEC_WASM_PATH],
    ['debug', CODEC_WASM_PATH.replace(/codec\.wasm$/, 'codec.debug.wasm')],
  ])('asks for exactly the exports of the %s module', (_build, path) => {
    expect([...CODEC_EXPORT_NAMES].sort()).toEqual(exportsOf(path).sort());
  });

  it('names each export asc describes in build/codec.d.ts', () => {
    const described = readFileSync(CODEC_WASM_PATH.replace(/\.wasm$/, '.d.ts'), 'utf8');
    const names = [...described.matchAll(/export (?:const|function) (\w+)/g)].map((m) => m[1]);
    expect([...CODEC_EXPORT_NAMES].sort()).toEqual(names.sort());
  });
});
