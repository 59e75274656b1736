#!/usr/bin/env node
// fleet-codec: the device-frame codec on the command line (see docs/codec.md).
// The codec's face is TypeScript; tsx loads it, and the Wasm module comes from build/codec.wasm.
import { register } from 'tsx/esm/api';

register();
const { loadCodec } = await import('../src/codec/load-node.ts');
const { runCliProcess } = await import('../src/codec/cli/run-process.ts');

await runCliProcess(loadCodec);
