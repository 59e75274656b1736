#!/usr/bin/env node
// fleet-codec: the device-frame codec on the command line (see docs/codec.md).
// The codec's face is TypeScript; tsx loads it, and the Wasm module comes from build/codec.wasm.
import { register } from 'tsx/esm/api';

register();
const { loadCodec } = await import('../src/codec/load-node.ts');
const { runCli } = await import('../src/codec/cli/main.ts');

try {
  const codec = await loadCodec();
  process.exitCode = await runCli(codec, process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
} catch (error) {
  process.stderr.write(`fleet-codec: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
