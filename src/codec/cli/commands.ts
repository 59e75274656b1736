import { type Codec, CodecError } from '../types.ts';
import { type ParsedArgs, parseArgs, required } from './args.ts';
import { hexArgument, parseWhole, toHex } from './hex.ts';
import { InputError } from './input-error.ts';

/** What a command prints on stdout, and its exit code (0 success, 1 a frame that fails verify). */
export interface CommandResult {
  stdout: string;
  exitCode: 0 | 1;
}

type Command = (codec: Codec, args: readonly string[]) => Promise<CommandResult>;

const ok = (stdout: string): CommandResult => ({ stdout, exitCode: 0 });

function hexWords(parsed: ParsedArgs, what: string): Uint8Array {
  if (parsed.words.length === 0) throw new InputError(`${what} is missing`);
  return hexArgument(parsed.words.join(' '), what);
}

async function crc16(codec: Codec, args: readonly string[]): Promise<CommandResult> {
  const crc = codec.crc16(hexWords(parseArgs(args, []), 'hex input'));
  const wire = toHex(new Uint8Array([crc & 0xff, crc >>> 8]));
  return ok(`${crc.toString(16).padStart(4, '0')} ${wire.slice(0, 2)} ${wire.slice(2)}`);
}

async function frame(codec: Codec, args: readonly string[]): Promise<CommandResult> {
  const parsed = parseArgs(args, ['opcode', 'size']);
  const opcode = parseWhole(required(parsed, 'opcode'), '--opcode');
  const size = parseWhole(required(parsed, 'size'), '--size');
  const payload =
    parsed.words.length > 0 ? hexArgument(parsed.words.join(' '), 'payload') : new Uint8Array(0);
  return ok(toHex(codec.buildFrame(opcode, size, payload)));
}

async function verify(codec: Codec, args: readonly string[]): Promise<CommandResult> {
  const parsed = parseArgs(args, ['size']);
  const size = parsed.options.has('size') ? parseWhole(parsed.options.get('size'), '--size') : undefined;
  const bytes = hexWords(parsed, 'frame hex');
  try {
    codec.verifyFrame(bytes, size);
  } catch (error) {
    if (error instanceof CodecError) return { stdout: error.message, exitCode: 1 };
    throw error;
  }
  return ok('ok');
}

// zod is loaded only by the commands that read descriptor files, so crc16/frame/verify start quicker.
const descriptorFile = () => import('./descriptor-file.ts');

async function decode(codec: Codec, args: readonly string[]): Promise<CommandResult> {
  const { readFields, displayValues } = await descriptorFile();
  const parsed = parseArgs(args, ['descriptors']);
  const fields = await readFields(required(parsed, 'descriptors'));
  const raw = codec.decodeFields(
    hexWords(parsed, 'frame hex'),
    fields.map((f) => f.buffer),
  );
  return ok(JSON.stringify(displayValues(fields, raw)));
}

async function encode(codec: Codec, args: readonly string[]): Promise<CommandResult> {
  const { parseFields, parseValues, rawValues, readJson } = await descriptorFile();
  const parsed = parseArgs(args, ['descriptors', 'values', 'opcode', 'size']);
  if (parsed.words.length > 0) throw new InputError(`unexpected argument '${parsed.words[0]}'`);
  const descriptorsPath = required(parsed, 'descriptors');
  const valuesPath = required(parsed, 'values');
  const fields = parseFields(await readJson(descriptorsPath), descriptorsPath);
  const values = parseValues(await readJson(valuesPath), fields, valuesPath);
  const raws = rawValues(fields, values, valuesPath);
  const bytes = codec.buildFrame(
    parseWhole(required(parsed, 'opcode'), '--opcode'),
    parseWhole(required(parsed, 'size'), '--size'),
  );
  codec.encodeFields(
    bytes,
    fields.map((f) => f.buffer),
    raws,
  );
  codec.sealFrame(bytes);
  return ok(toHex(bytes));
}

/** The commands by name. */
export const commands: Readonly<Record<string, Command>> = { crc16, frame, verify, decode, encode };
