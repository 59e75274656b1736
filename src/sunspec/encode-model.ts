import type { DecodedModel, DecodedPoint } from './decode-device.ts';
import { encodePoint, type PointValue } from './point-codec.ts';
import { SunSpecError } from './sunspec-error.ts';

/**
 * Encodes every point of a decoded model back into registers: the inverse of `decodeModel`.
 * Registers no point covers (past the definition, or a model without one) keep their read value.
 */
export function encodeModel(model: DecodedModel, values?: ReadonlyMap<string, PointValue>): Uint16Array {
  const out = new Uint16Array(model.registers.length);
  const covered = new Uint8Array(out.length);
  for (const point of model.points) {
    const value = values?.has(point.path) ? (values.get(point.path) as PointValue) : point.value;
    out.set(encodePoint(point.def, value, point.sf), point.offset);
    covered.fill(1, point.offset, point.offset + point.size);
  }
  for (let i = 0; i < out.length; i++) if (!covered[i]) out[i] = model.registers[i] as number;
  return out;
}

/** A run of registers to write: the address of the first and their new values. */
export interface WriteRange {
  address: number;
  registers: Uint16Array;
}

/** Most registers one function-16 request may carry (Modbus application protocol). */
export const MAX_WRITE_REGISTERS = 123;

/**
 * The registers to write so that the device holds `values`: whole points that changed (and whole
 * `sync` groups that hold one), joined where they touch, split at 123 registers.
 *
 * @throws SunSpecError 'bad-value' when a value does not fit its point.
 */
export function changedRanges(model: DecodedModel, values: ReadonlyMap<string, PointValue>): WriteRange[] {
  const next = encodeModel(model, values);
  const dirty = new Uint8Array(next.length);
  const syncs = new Set<string>();
  const differs = (p: DecodedPoint) => {
    for (let i = p.offset; i < p.offset + p.size; i++) if (next[i] !== model.registers[i]) return true;
    return false;
  };
  for (const point of model.points) {
    if (!differs(point)) continue;
    dirty.fill(1, point.offset, point.offset + point.size);
    if (point.sync) syncs.add(point.sync);
  }
  for (const point of model.points) {
    if (point.sync && syncs.has(point.sync)) dirty.fill(1, point.offset, point.offset + point.size);
  }
  const ranges: WriteRange[] = [];
  let i = 0;
  while (i < dirty.length) {
    if (!dirty[i]) {
      i++;
      continue;
    }
    let end = i;
    while (end < dirty.length && dirty[end] && end - i < MAX_WRITE_REGISTERS) end++;
    ranges.push({ address: model.address + i, registers: next.slice(i, end) });
    i = end;
  }
  return ranges;
}

/** Checks that every edited path names a point of the model. */
export function checkPaths(model: DecodedModel, values: ReadonlyMap<string, PointValue>): void {
  for (const path of values.keys()) {
    if (!model.points.some((p) => p.path === path)) {
      throw new SunSpecError('bad-changes', `model ${model.id} has no point ${path}`);
    }
  }
}
