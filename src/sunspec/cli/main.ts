import { readFile } from 'node:fs/promises';
import { errorMessage } from '../../../contracts/error-message.ts';
import { parseArgs, required } from '../../codec/cli/args.ts';
import { parseWhole } from '../../codec/cli/hex.ts';
import { InputError } from '../../codec/cli/input-error.ts';
import type { Codec } from '../../codec/types.ts';
import { buildCatalogue, describeSkipped } from '../catalogue.ts';
import { type DecodedDevice, decodeDevice } from '../decode-device.ts';
import { changesFromJson, deviceJson, stringifyJson } from '../device-json.ts';
import { checkEdit } from '../edit-point.ts';
import { changedRanges } from '../encode-model.ts';
import { readBundledModels, readModelFolder } from '../model-folder.ts';
import { parseDump } from '../register-dump.ts';
import { SunSpecError } from '../sunspec-error.ts';
import { writeRequests } from '../write-requests.ts';

export const USAGE = `usage: sunspec <command> …
  decode [--models <folder>] <dump file>
      prints the device's models as JSON: [{"id", "name", "points": {name: value}}]
  encode [--models <folder>] [--unit <n>] <dump file> <changes.json>
      prints the Modbus write requests (function 16, CRC-16/MODBUS) that make the device hold the
      values in changes.json (the shape decode prints; only values that differ are written), one
      hex frame a line
The bundled model definitions are always loaded; --models adds every *.json file of a folder
(a file for a model id already known replaces it; a malformed file is skipped with its name and
reason on stderr, and the others load). Bad input exits 2 with one line on stderr.`;

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
    throw new InputError(`${what} ${path} cannot be read (${code})`);
  }
}

async function loadDevice(args: readonly string[], known: string[], io: Io) {
  const parsed = parseArgs(args, ['models', ...known]);
  const folder = parsed.options.get('models');
  const extra = folder === undefined ? { models: [], skipped: [] } : await readModelFolder(folder);
  // A bad file of the folder is said and left out; the rest of the folder loads.
  for (const line of describeSkipped(extra.skipped)) io.err(`sunspec: skipped ${line}`);
  const catalogue = buildCatalogue(await readBundledModels(), extra.models);
  const dumpPath = parsed.words[0];
  if (dumpPath === undefined) throw new InputError('the dump file is missing');
  const dump = parseDump(await readText(dumpPath, 'the dump file'));
  let device: DecodedDevice;
  try {
    device = decodeDevice(dump, catalogue);
  } catch (error) {
    if (error instanceof SunSpecError) throw new InputError(`${dumpPath}: ${error.message}`);
    throw error;
  }
  return { parsed, device };
}

async function decode(_codec: Codec, args: readonly string[], io: Io): Promise<string> {
  const { parsed, device } = await loadDevice(args, [], io);
  if (parsed.words.length > 1) throw new InputError(`unexpected argument '${parsed.words[1]}'`);
  return stringifyJson(deviceJson(device), 2);
}

async function encode(codec: Codec, args: readonly string[], io: Io): Promise<string> {
  const { parsed, device } = await loadDevice(args, ['unit'], io);
  const unit = parsed.options.has('unit') ? parseWhole(required(parsed, 'unit'), '--unit') : 1;
  const changesPath = parsed.words[1];
  if (changesPath === undefined) throw new InputError('the changes file is missing');
  const text = await readText(changesPath, 'the changes file');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new InputError(`${changesPath} is not valid JSON (${errorMessage(cause)})`);
  }
  const lines: string[] = [];
  for (const [index, values] of changesFromJson(device, json)) {
    const model = device.models[index];
    if (!model) continue;
    for (const [path, value] of values) {
      const point = model.points.find((p) => p.path === path);
      if (point) checkEdit(point, value);
    }
    for (const request of writeRequests(changedRanges(model, values), unit, codec.crc16)) {
      lines.push(Array.from(request.frame, (b) => b.toString(16).padStart(2, '0')).join(''));
    }
  }
  return lines.join('\n');
}

const commands: Record<string, (codec: Codec, args: readonly string[], io: Io) => Promise<string>> = {
  decode,
  encode,
};

/**
 * Runs one `sunspec` command line and returns its exit code: 0 success, 2 bad input (one line on
 * stderr: a missing or unreadable file, bad hex, a malformed model, a bad value).
 *
 * @example
 * await runSunSpecCli(codec, ['decode', 'device.hex'], io); // prints the models as JSON, returns 0
 */
export async function runSunSpecCli(codec: Codec, argv: readonly string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? io.err : io.out)(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (command === undefined) {
    io.err(`sunspec: unknown command '${name}' (expected decode or encode)`);
    return 2;
  }
  try {
    const output = await command(codec, args, io);
    if (output) io.out(output);
    return 0;
  } catch (error) {
    if (error instanceof InputError || error instanceof SunSpecError) {
      io.err(`sunspec: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
