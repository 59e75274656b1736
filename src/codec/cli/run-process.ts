import type { Codec } from '../types.ts';
import { runCli } from './main.ts';

/**
 * Runs `fleet-codec` as this process: loads the codec with `load`, runs the command line, and sets
 * the exit code. A codec that cannot be loaded is reported in one line (exit 2). Shared by the
 * checkout's bin/fleet-codec.mjs and the packaged command.
 */
export async function runCliProcess(
  load: () => Promise<Codec>,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  try {
    const codec = await load();
    process.exitCode = await runCli(codec, argv, {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    process.stderr.write(`fleet-codec: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
