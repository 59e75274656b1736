import type { DecodedPoint } from './decode-device.ts';
import { encodePoint, type PointValue } from './point-codec.ts';
import { isBitfield, isEnum, TYPE_INFO } from './point-types.ts';
import { SunSpecError } from './sunspec-error.ts';

const nameOf = (point: DecodedPoint) => `${point.def.label ?? point.def.name} (${point.path})`;

/** Whether a point may be edited: read-write, and not one that sets the model's layout. */
export function isWritable(point: DecodedPoint): boolean {
  const { type, name } = point.def;
  return (
    point.def.access === 'RW' &&
    type !== 'count' &&
    type !== 'sunssf' &&
    type !== 'pad' &&
    name !== 'ID' &&
    name !== 'L'
  );
}

/**
 * Checks a new value for a point and returns it as it will be encoded: the point must be writable,
 * the value within the type's range after scaling, a multiple of the scale step, and one of an
 * enum's symbols. `null` (not implemented) is refused: a setting is written with a real value.
 *
 * @throws SunSpecError 'bad-value' saying what is wrong, by the point's label and path.
 */
export function checkEdit(point: DecodedPoint, value: PointValue): PointValue {
  if (!isWritable(point)) throw new SunSpecError('bad-value', `${nameOf(point)} is read-only`);
  if (value === null) throw new SunSpecError('bad-value', `${nameOf(point)} needs a value`);
  const { def } = point;
  if (isEnum(def.type) && def.symbols && def.symbols.length > 0) {
    if (!def.symbols.some((s) => String(s.value) === String(value))) {
      const names = def.symbols.map((s) => `${s.name} (${s.value})`).join(', ');
      throw new SunSpecError('bad-value', `${nameOf(point)} must be one of ${names}`);
    }
  }
  encodePoint(def, value, point.sf);
  return value;
}

/**
 * Reads what a user typed (or picked) for a point: a number for numeric types (an enum also by
 * symbol name), text for strings and addresses; then {@link checkEdit}.
 *
 * @example
 * parseEdit(wmaxPoint, '9000'); // 9000
 * parseEdit(wmaxPoint, 'lots'); // throws "WMax (WMax) must be a number"
 * @throws SunSpecError 'bad-value' naming the point and the problem.
 */
export function parseEdit(point: DecodedPoint, text: string): PointValue {
  const { def } = point;
  const trimmed = text.trim();
  const info = TYPE_INFO[def.type];
  if (info.encoding === 'string') return checkEdit(point, text.replace(/\s+$/, ''));
  if (!info.numeric && !isBitfield(def.type)) {
    if (trimmed === '') throw new SunSpecError('bad-value', `${nameOf(point)} needs a value`);
    return checkEdit(point, trimmed);
  }
  if (trimmed === '') throw new SunSpecError('bad-value', `${nameOf(point)} needs a value`);
  const symbol = def.symbols?.find((s) => s.name === trimmed);
  if (symbol && isEnum(def.type)) return checkEdit(point, symbol.value);
  const number = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(number)) throw new SunSpecError('bad-value', `${nameOf(point)} must be a number`);
  return checkEdit(point, number);
}
