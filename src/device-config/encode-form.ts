import { checkOpcode } from '../codec/frame-checks.ts';
import { scaleRaw, unscale } from '../codec/scale.ts';
import { type Codec, CodecError } from '../codec/types.ts';
import type { DeviceConfig, RawItem } from './config-schema.ts';
import { fieldRange } from './field-range.ts';
import type { FormField, FormGroupModel } from './form-fields.ts';
import { codesOfText } from './text-codes.ts';
import { dateTimeToTime, NOT_AVAILABLE } from './time-format.ts';
import { toNumber, validateField } from './validate-field.ts';

/** A form value that cannot be written, named by its field. */
export interface FieldError {
  field: string;
  message: string;
}

export type EncodeResult = { ok: true; frame: Uint8Array } | { ok: false; errors: FieldError[] };

type Writes = Map<string, number>;

function rawWrite(item: RawItem, value: number, label: string): number | string {
  const raw = unscale(value, item.multiplier);
  const { min, max } = fieldRange(item.buffer);
  if (raw < min || raw > max)
    return `${label}: ${value} does not fit (${scaleRaw(min, item.multiplier)}…${scaleRaw(max, item.multiplier)})`;
  return raw;
}

function collect(
  codec: Codec,
  field: FormField,
  value: unknown,
  items: Map<string, RawItem>,
  out: Writes,
): string | null {
  const problem = validateField(field, value);
  if (problem) return problem;
  const { target, label } = field;
  if (target.kind === 'none' || value === '' || value === undefined || value === null) return null;
  if (target.kind === 'raw') {
    const item = items.get(target.name);
    const n = toNumber(value);
    if (!item || typeof n !== 'number') return null;
    const raw = rawWrite(item, n, label);
    if (typeof raw === 'string') return raw;
    out.set(item.name, raw);
    return null;
  }
  const text = String(value);
  let numbers: number[];
  if (target.kind === 'text') {
    // Items of one byte each hold the text's UTF-8 (text-codes.ts).
    const bytes = target.refs.every((ref) => {
      const item = items.get(ref);
      const range = item && fieldRange(item.buffer);
      return range !== undefined && range.min >= 0 && range.max <= 0xff;
    });
    try {
      numbers = field.kind === 'password' ? codec.passwordCodes(text) : codesOfText(text, bytes);
    } catch (error) {
      if (error instanceof CodecError) return `${label}: ${error.message}`;
      throw error;
    }
    const room = target.refs.length;
    if (numbers.length > room)
      return [...text].length <= room && bytes
        ? `${label} takes at most ${room} bytes: letters such as ü or é take 2 each, and this one needs ${numbers.length}`
        : `${label} takes at most ${room} characters`;
    numbers = target.refs.map((_, i) => numbers[i] ?? 0);
  } else {
    const match = target.pattern.exec(text);
    if (!match) return `${label} does not have the expected format`;
    if (field.kind === 'datetime-local' && dateTimeToTime(text) === NOT_AVAILABLE)
      return `${label} is not a real date and time`;
    numbers = match.slice(1).map(Number);
  }
  for (const [i, ref] of target.refs.entries()) {
    const item = items.get(ref);
    if (!item) continue;
    const raw = rawWrite(item, numbers[i] ?? 0, label);
    if (typeof raw === 'string') return raw;
    out.set(ref, raw);
  }
  return null;
}

/**
 * Form → frame: each enabled field's value is checked against its rules, divided by its multiplier and
 * rounded, range-checked, and written into a copy of `baseFrame` (the frame the values were read from,
 * so that bytes the form does not cover are kept); then the CRC is recomputed. Nothing is written when
 * any field is bad: the result lists every bad field by name.
 * @throws CodecError 'invalid-opcode' when `options.opcode` is not a byte (it would wrap silently),
 *   'frame-length' when `baseFrame` is shorter than the 254-byte data view.
 * @example
 * const result = encodeConfiguration(codec, config, form, values, lastReadFrame, { opcode: 0x02 });
 * if (result.ok) await transport.write(result.frame);
 */
export function encodeConfiguration(
  codec: Codec,
  config: DeviceConfig,
  groups: readonly FormGroupModel[],
  values: Readonly<Record<string, unknown>>,
  baseFrame: Uint8Array,
  options: { opcode?: number } = {},
): EncodeResult {
  if (options.opcode !== undefined) checkOpcode(options.opcode);
  const items = new Map(config.rawData.map((item) => [item.name, item]));
  const writes: Writes = new Map();
  const errors: FieldError[] = [];
  for (const field of groups.flatMap((g) => g.fields)) {
    // Disabled fields are never written; react-hook-form leaves them out of its values anyway.
    if (field.disabled || !(field.name in values)) continue;
    const message = collect(codec, field, values[field.name], items, writes);
    if (message) errors.push({ field: field.name, message });
  }
  if (errors.length > 0) return { ok: false, errors };
  const frame = baseFrame.slice();
  if (options.opcode !== undefined) frame[0] = options.opcode;
  // Only the fields the form changed are written; every other byte stays as the device sent it.
  const written = config.rawData.filter((item) => writes.has(item.name));
  codec.encodeFields(
    frame,
    written.map((item) => item.buffer),
    written.map((item) => writes.get(item.name) as number),
  );
  codec.sealFrame(frame);
  return { ok: true, frame };
}
