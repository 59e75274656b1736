import type { PointDef } from './model-schema.ts';
import { bitsOf, rawRange, TYPE_INFO } from './point-types.ts';
import { SunSpecError } from './sunspec-error.ts';

/**
 * A decoded point value: a number (scaled when the point has a scale factor), a bigint for a
 * 64-bit value past 2^53, a string (text, addresses), or `null` for not implemented.
 */
export type PointValue = number | bigint | string | null;

/** Registers a point takes. */
export const pointSize = (p: PointDef): number => TYPE_INFO[p.type].size ?? p.size ?? 1;

function readBig(regs: Uint16Array, at: number, size: number): bigint {
  let v = 0n;
  for (let i = 0; i < size; i++) v = (v << 16n) | BigInt(regs[at + i] ?? 0);
  return v;
}

function writeBig(value: bigint, size: number): Uint16Array {
  const out = new Uint16Array(size);
  let v = BigInt.asUintN(size * 16, value);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffffn);
    v >>= 16n;
  }
  return out;
}

const toNumberIfSafe = (v: bigint): number | bigint =>
  v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;

/** raw × 10^sf, computed so that decimal steps print as written (1234 with -2 gives 12.34). */
export function applyScale(raw: bigint, sf: number): number | bigint {
  if (sf === 0) return toNumberIfSafe(raw);
  return sf < 0 ? Number(raw) / 10 ** -sf : Number(raw) * 10 ** sf;
}

function bytesOf(regs: Uint16Array, at: number, size: number): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < size; i++) {
    const r = regs[at + i] ?? 0;
    bytes.push(r >> 8, r & 0xff);
  }
  return bytes;
}

function regsOf(bytes: readonly number[], size: number): Uint16Array {
  const out = new Uint16Array(size);
  for (let i = 0; i < size; i++) out[i] = ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0);
  return out;
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/**
 * The shortest decimal that is the same float32 (230.9 rather than 230.89999389648438), so values
 * read as they were written and still encode to the same bits.
 */
function shortestFloat32(v: number): number {
  if (!Number.isFinite(v) || Object.is(v, -0)) return v;
  for (let digits = 1; digits < 9; digits++) {
    const candidate = Number(v.toPrecision(digits));
    if (Math.fround(candidate) === v) return candidate;
  }
  return v;
}

export interface DecodedValue {
  value: PointValue;
  /** The point has a scale factor that is itself not implemented: `value` is unscaled. */
  unscaled: boolean;
}

/**
 * Decodes one point from the registers of a model. `sf` is the point's scale factor exponent,
 * `null` when its sunssf point is not implemented, `undefined` when it has none.
 */
export function decodePoint(
  p: PointDef,
  regs: Uint16Array,
  at: number,
  sf: number | null | undefined,
): DecodedValue {
  const { encoding, sentinel } = TYPE_INFO[p.type];
  const size = pointSize(p);
  const plain = (value: PointValue): DecodedValue => ({ value, unscaled: false });
  switch (encoding) {
    case 'string': {
      const bytes = bytesOf(regs, at, size);
      const end = bytes.indexOf(0);
      const text = String.fromCharCode(...(end < 0 ? bytes : bytes.slice(0, end)));
      return plain(text.length === 0 ? null : text);
    }
    case 'float': {
      const view = new DataView(new ArrayBuffer(size * 2));
      bytesOf(regs, at, size).forEach((b, i) => {
        view.setUint8(i, b);
      });
      const v = size === 2 ? shortestFloat32(view.getFloat32(0)) : view.getFloat64(0);
      if (Number.isNaN(v)) return plain(null);
      return typeof sf === 'number' && sf !== 0 ? plain(v * 10 ** sf) : plain(v);
    }
    case 'ipv4': {
      const bytes = bytesOf(regs, at, size);
      return plain(bytes.every((b) => b === 0) ? null : bytes.join('.'));
    }
    case 'ipv6': {
      const words = Array.from(regs.subarray(at, at + size));
      return plain(words.every((w) => w === 0) ? null : words.map((w) => w.toString(16)).join(':'));
    }
    case 'eui48': {
      const bytes = bytesOf(regs, at, size);
      if (bytes.every((b) => b === 0xff)) return plain(null);
      return plain(bytes.slice(2).map(hex2).join(':'));
    }
    default: {
      const bits = readBig(regs, at, size);
      if (sentinel !== undefined && bits === sentinel) return plain(null);
      const raw = encoding === 'signed' ? BigInt.asIntN(bitsOf(p.type), bits) : bits;
      if (sf === null) return { value: toNumberIfSafe(raw), unscaled: true };
      return plain(applyScale(raw, sf ?? 0));
    }
  }
}

const fail = (p: PointDef, problem: string): never => {
  throw new SunSpecError('bad-value', `${p.label ?? p.name} (${p.name}) ${problem}`);
};

function decimals(sf: number): number {
  return sf < 0 ? -sf : 0;
}

/** The lowest and highest values a point can be set to, after scaling. */
export function valueRange(p: PointDef, sf: number | null | undefined): { min: number; max: number } | null {
  const { encoding } = TYPE_INFO[p.type];
  if (encoding === 'float') {
    const max = p.type === 'float32' ? 3.4028234663852886e38 : Number.MAX_VALUE;
    return { min: -max, max };
  }
  if (encoding !== 'signed' && encoding !== 'unsigned') return null;
  const { min, max } = rawRange(p.type);
  const scale = (v: bigint) => Number(applyScale(v, sf ?? 0));
  return { min: scale(min), max: scale(max) };
}

function rawFromNumber(p: PointDef, value: number, sf: number | null | undefined): bigint {
  const exponent = sf ?? 0;
  const exact = exponent < 0 ? value * 10 ** -exponent : value / 10 ** exponent;
  const rounded = Math.round(exact);
  if (Math.abs(exact - rounded) > 1e-6 * Math.max(1, Math.abs(exact))) {
    fail(
      p,
      `takes steps of ${10 ** exponent >= 1 ? 10 ** exponent : (10 ** exponent).toFixed(decimals(exponent))}`,
    );
  }
  const raw = BigInt(rounded);
  const { min, max } = rawRange(p.type);
  if (raw < min || raw > max) {
    const range = valueRange(p, sf);
    fail(p, `must be between ${range?.min} and ${range?.max}${p.units ? ` ${p.units}` : ''}`);
  }
  return raw;
}

function encodeText(p: PointDef, value: string, size: number): number[] {
  const bytes = Array.from(value, (c) => c.charCodeAt(0));
  if (bytes.some((b) => b > 0x7e || b < 0x20)) fail(p, 'takes printable ASCII characters only');
  if (bytes.length > size * 2) fail(p, `holds at most ${size * 2} characters`);
  return bytes;
}

function encodeAddress(p: PointDef, value: string, size: number): Uint16Array {
  const { encoding } = TYPE_INFO[p.type];
  if (encoding === 'ipv4') {
    const parts = value.split('.');
    if (parts.length !== 4 || parts.some((x) => !/^\d{1,3}$/.test(x) || Number(x) > 255)) {
      fail(p, 'must be an IPv4 address such as 192.168.1.20');
    }
    return regsOf(parts.map(Number), size);
  }
  if (encoding === 'ipv6') {
    const parts = value.split(':');
    if (parts.length !== 8 || parts.some((x) => !/^[0-9a-f]{1,4}$/i.test(x))) {
      fail(p, 'must be eight groups of up to four hex digits, such as fe80:0:0:0:0:0:0:1');
    }
    return Uint16Array.from(parts.map((x) => Number.parseInt(x, 16)));
  }
  const parts = value.split(':');
  if (parts.length !== 6 || parts.some((x) => !/^[0-9a-f]{2}$/i.test(x))) {
    fail(p, 'must be six pairs of hex digits, such as 00:1b:44:11:3a:b7');
  }
  return regsOf([0, 0, ...parts.map((x) => Number.parseInt(x, 16))], size);
}

/**
 * Encodes a point value into its registers: the inverse of {@link decodePoint}. `null` writes the
 * type's not-implemented sentinel.
 *
 * @example
 * encodePoint({ name: 'WMax', type: 'uint16' }, 9000.5, -1); // Uint16Array [90005]
 * @throws SunSpecError 'bad-value' naming the point when the value is out of range, not a multiple
 *   of the scale step, not one of an enum's symbols, or text that does not fit.
 */
export function encodePoint(p: PointDef, value: PointValue, sf: number | null | undefined): Uint16Array {
  const { encoding, sentinel } = TYPE_INFO[p.type];
  const size = pointSize(p);
  if (value === null) {
    if (encoding === 'float') return writeFloat(Number.NaN, size);
    if (encoding === 'ipv6' || encoding === 'ipv4' || encoding === 'string') return new Uint16Array(size);
    // Types without a sentinel never decode to null; a pad register is conventionally 0x8000.
    if (sentinel === undefined) return writeBig(p.type === 'pad' ? 0x8000n : 0n, size);
    return writeBig(sentinel, size);
  }
  switch (encoding) {
    case 'string': {
      if (typeof value !== 'string') return fail(p, 'takes text');
      return regsOf(encodeText(p, value, size), size);
    }
    case 'float': {
      if (typeof value !== 'number' || Number.isNaN(value)) return fail(p, 'takes a number');
      const scaled = typeof sf === 'number' && sf !== 0 ? value / 10 ** sf : value;
      const range = valueRange(p, 0);
      // ±Infinity is a float a device may send and is written back as it came; a finite value
      // past the type's largest would only become one by overflowing, so it is refused.
      const overflows = Number.isFinite(scaled) && range && (scaled < range.min || scaled > range.max);
      if (overflows) fail(p, 'is too large for its type');
      return writeFloat(scaled, size);
    }
    case 'ipv4':
    case 'ipv6':
    case 'eui48':
      if (typeof value !== 'string') return fail(p, 'takes an address as text');
      return encodeAddress(p, value, size);
    default: {
      if (typeof value === 'string') return fail(p, 'takes a number');
      const raw = typeof value === 'bigint' && !sf ? value : rawFromNumber(p, Number(value), sf);
      const { min, max } = rawRange(p.type);
      if (raw < min || raw > max) fail(p, 'is out of range for its type');
      return writeBig(raw, size);
    }
  }
}

function writeFloat(value: number, size: number): Uint16Array {
  const view = new DataView(new ArrayBuffer(size * 2));
  if (size === 2) view.setFloat32(0, value);
  else view.setFloat64(0, value);
  const out = new Uint16Array(size);
  for (let i = 0; i < size; i++) out[i] = view.getUint16(2 * i);
  return out;
}
