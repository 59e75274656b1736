import type { Codec } from '../types.ts';
import { CodecError } from '../types.ts';
import { commands } from './commands.ts';
import { InputError } from './input-error.ts';

export const USAGE = `usage: fleet-codec <command> …
  crc16 <hex>                                   CRC-16/MODBUS: 4 hex digits, then the two wire bytes
  frame --opcode <n> --size <bytes> [<hex>]     a whole frame: opcode, payload, zeros, CRC
  verify [--size <bytes>] <hex>                 'ok' (exit 0), or what is wrong (exit 1)
  decode --descriptors <file.json> <hex>        {name: raw × multiplier} from the 254-byte data view
  encode --descriptors <file.json> --values <values.json> --opcode <n> --size <bytes>
Hex may have spaces between bytes or none; output hex is lower case. Bad input exits 2.`;

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

/**
 * Runs one command line and returns its exit code: 0 success, 1 a frame that fails `verify`,
 * 2 bad input (one line on stderr).
 *
 * @example
 * await runCli(codec, ['crc16', '01 03 00 00 00 0a'], io); // prints "cdc5 c5 cd", returns 0
 */
export async function runCli(codec: Codec, argv: readonly string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? io.err : io.out)(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (command === undefined || !Object.hasOwn(commands, name)) {
    io.err(`fleet-codec: unknown command '${name}' (expected crc16, frame, verify, decode or encode)`);
    return 2;
  }
  try {
    const result = await command(codec, args);
    io.out(result.stdout);
    return result.exitCode;
  } catch (error) {
    if (error instanceof InputError || error instanceof CodecError) {
      io.err(`fleet-codec: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
