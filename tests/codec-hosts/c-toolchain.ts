import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Tool, ToolMissingError } from '../find-tool.ts';

const purpose = 'the codec’s C harness test';

/** wabt's wasm2c, which turns build/codec.wasm into C. */
export const WABT: Tool = { label: 'wasm2c', command: 'wasm2c', packages: ['wabt'], purpose };

/** The C compiler and the C library headers it needs. */
export const GCC: Tool = { label: 'gcc', command: 'gcc', packages: ['gcc', 'libc6-dev'], purpose };

/**
 * The folder of wasm2c's runtime (wasm-rt-impl.c, which the generated C is linked with): wabt
 * installs it under its own prefix, /usr/share/wabt/wasm2c for Debian's package.
 * @throws {ToolMissingError} when it is not there.
 */
export function wasm2cRuntime(wasm2c: string, exists: (path: string) => boolean = existsSync): string {
  const dir = join(dirname(dirname(realpathSync(wasm2c))), 'share/wabt/wasm2c');
  if (!exists(join(dir, 'wasm-rt-impl.c'))) {
    throw new ToolMissingError(
      `No ${join(dir, 'wasm-rt-impl.c')} beside ${wasm2c}: run \`sudo apt-get install --reinstall -y wabt\`, then run the tests again.`,
    );
  }
  return dir;
}
