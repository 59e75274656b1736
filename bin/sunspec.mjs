#!/usr/bin/env node
// sunspec: decode a SunSpec register dump, or turn changed values into Modbus write requests
// (see docs/sunspec.md). tsx loads the TypeScript library; the CRC comes from build/codec.wasm.
import { register } from 'tsx/esm/api';

register();
const { loadCodec } = await import('../src/codec/load-node.ts');
const { runSunSpecCli } = await import('../src/sunspec/cli/main.ts');

try {
  const codec = await loadCodec();
  process.exitCode = await runSunSpecCli(codec, process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
} catch (error) {
  process.stderr.write(`sunspec: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
