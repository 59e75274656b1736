// The package's `fleet-codec` command: the checkout's command line over the shipped codec.wasm.
import { runCliProcess } from '../cli/run-process.ts';
import { loadCodec } from './node.ts';

await runCliProcess(() => loadCodec());
