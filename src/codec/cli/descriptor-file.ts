import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { checkField, checkValue } from '../field-checks.ts';
import { scaleRaw, unscale } from '../scale.ts';
import { type BufferDescriptor, CodecError, DATA_VIEW_LENGTH } from '../types.ts';
import { InputError } from './input-error.ts';

/** Runs a codec check, turning its error into an InputError that starts with `label`. */
function named(label: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof CodecError) throw new InputError(`${label}: ${error.message}`, { cause: error });
    throw error;
  }
}

/** One rawData item as the CLI needs it; other keys of the item (value, unit…) are ignored. */
export interface NamedField {
  name: string;
  buffer: BufferDescriptor;
  multiplier: number;
}

const itemSchema = z.object({
  name: z.string().min(1, 'must not be empty'),
  buffer: z.object({
    position: z.number().int().min(0),
    length: z.union([z.literal(8), z.literal(16), z.literal(32)], { error: 'must be 8, 16 or 32' }),
    signed: z.boolean(),
    littleEndian: z.boolean(),
  }),
  multiplier: z.number().positive().finite().optional(),
});

/** A rawData array, or a whole {product}-to-form.json whose rawData is used. */
const fileSchema = z.union([z.array(z.unknown()), z.object({ rawData: z.array(z.unknown()) })]);

/**
 * Reads a JSON file.
 * @throws InputError when the file cannot be read or is not JSON.
 */
export async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new InputError(`cannot read ${path}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`, {
      cause,
    });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new InputError(`${path} is not JSON: ${(cause as Error).message}`, { cause });
  }
}

/**
 * Validates descriptor items, naming the first bad item and field (a field past the 254-byte view
 * included).
 * @throws InputError like `descriptors.json item 2 ("voltage"): buffer.length must be 8, 16 or 32`.
 */
export function parseFields(json: unknown, source: string): NamedField[] {
  const file = fileSchema.safeParse(json);
  if (!file.success)
    throw new InputError(`${source} must be a JSON array of rawData items (or have a rawData array)`);
  const items = Array.isArray(file.data) ? file.data : file.data.rawData;
  const seen = new Set<string>();
  return items.map((item, i) => {
    const parsed = itemSchema.safeParse(item);
    const label = `${source} item ${i}${typeof (item as { name?: unknown })?.name === 'string' ? ` ("${(item as { name: string }).name}")` : ''}`;
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputError(`${label}: ${issue?.path.join('.') || 'item'} ${issue?.message ?? 'is invalid'}`);
    }
    named(label, () => checkField(parsed.data.buffer, DATA_VIEW_LENGTH));
    if (seen.has(parsed.data.name))
      throw new InputError(`${label}: name "${parsed.data.name}" appears twice`);
    seen.add(parsed.data.name);
    return { name: parsed.data.name, buffer: parsed.data.buffer, multiplier: parsed.data.multiplier ?? 1 };
  });
}

/** Reads and validates a descriptor file. */
export async function readFields(path: string): Promise<NamedField[]> {
  return parseFields(await readJson(path), path);
}

/**
 * Values file: an object of display values by name, one for every field and no others.
 * @throws InputError naming a missing, unknown or non-numeric value.
 */
export function parseValues(json: unknown, fields: readonly NamedField[], source: string): number[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InputError(`${source} must be a JSON object of values by name`);
  }
  const record = json as Record<string, unknown>;
  const names = new Set(fields.map((f) => f.name));
  const unknown = Object.keys(record).find((name) => !names.has(name));
  if (unknown !== undefined)
    throw new InputError(`${source}: "${unknown}" is not a field of the descriptors`);
  return fields.map((f) => {
    const value = record[f.name];
    if (value === undefined) throw new InputError(`${source}: no value for "${f.name}"`);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new InputError(`${source}: value of "${f.name}" is not a number`);
    }
    return value;
  });
}

/**
 * Raw integers of display values: each divided by its multiplier and rounded, then checked against
 * its field.
 * @throws InputError naming the value that does not fit, e.g.
 *   `values.json: "chargeLimit" 300: value 300 does not fit the unsigned 8-bit field at position 10 (0 to 255)`.
 */
export function rawValues(
  fields: readonly NamedField[],
  values: readonly number[],
  source: string,
): number[] {
  return fields.map((f, i) => {
    const value = values[i] as number;
    const raw = unscale(value, f.multiplier);
    named(`${source}: "${f.name}" ${value}`, () => checkValue(f.buffer, raw));
    return raw;
  });
}

/** `{name: raw × multiplier}` for decoded raw integers, in field order. */
export function displayValues(fields: readonly NamedField[], raw: readonly number[]): Record<string, number> {
  return Object.fromEntries(fields.map((f, i) => [f.name, scaleRaw(raw[i] as number, f.multiplier)]));
}
