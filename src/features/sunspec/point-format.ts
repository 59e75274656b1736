import type { DecodedPoint } from '../../sunspec/decode-device.ts';
import type { PointValue } from '../../sunspec/point-codec.ts';
import { isBitfield, isEnum } from '../../sunspec/point-types.ts';

/** Shown for a value the device does not implement. */
export const NOT_IMPLEMENTED = 'n/a';

/** The value as text for an input: numbers as written, enums by number. */
export const editText = (value: PointValue): string => (value === null ? '' : String(value));

/** Names of the bits set in a bitfield value, from its symbols; unnamed bits as `bit n`. */
export function flagNames(point: DecodedPoint, value: PointValue = point.value): string[] {
  if (value === null || typeof value === 'string') return [];
  const bits = BigInt(value);
  const names: string[] = [];
  for (let bit = 0n; bits >> bit > 0n; bit++) {
    if (((bits >> bit) & 1n) === 0n) continue;
    names.push(point.def.symbols?.find((s) => BigInt(s.value) === bit)?.name ?? `bit ${bit}`);
  }
  return names;
}

/** A value as a person reads it: `n/a`, an enum's symbol name, a bitfield's flags, or the number. */
export function displayValue(point: DecodedPoint, value: PointValue = point.value): string {
  if (value === null) return NOT_IMPLEMENTED;
  if (isEnum(point.def.type)) {
    const symbol = point.def.symbols?.find((s) => String(s.value) === String(value));
    return symbol ? `${symbol.name} (${value})` : String(value);
  }
  if (isBitfield(point.def.type)) {
    const flags = flagNames(point, value);
    return flags.length === 0 ? 'none' : flags.join(', ');
  }
  return String(value);
}

/** Whether a point matches a search: its name, path, label, description or units. */
export function matchesQuery(point: DecodedPoint, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const { def } = point;
  return [point.path, def.label, def.desc, def.units].some((text) => text?.toLowerCase().includes(q));
}
