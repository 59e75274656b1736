import { E_OK, E_POSITION, E_VALUE, E_WIDTH, fail } from './errors';
import { DESCRIPTORS, IO, VALUES } from './layout';

const SIGNED: u32 = 1 << 24;
const LITTLE_ENDIAN: u32 = 1 << 25;

function descriptorAt(i: i32): u32 {
  return load<u32>(DESCRIPTORS + ((<usize>i) << 2));
}

// 8, 16 and 32 are the powers of two from 8 to 32: one test instead of three compares.
function widthBytes(d: u32): i32 {
  const bits = (d >> 16) & 0xff;
  return bits >= 8 && bits <= 32 && (bits & (bits - 1)) === 0 ? <i32>(bits >> 3) : 0;
}

// Checks the descriptor of field i against a view of `limit` bytes: E_OK, E_WIDTH or E_POSITION.
function checkDescriptor(d: u32, limit: i32): i32 {
  const bytes = widthBytes(d);
  if (bytes === 0) return E_WIDTH;
  if (<i32>(d & 0xffff) + bytes > limit) return E_POSITION;
  return E_OK;
}

// A value fits when it is a whole number inside the range of the field's width and signedness.
function checkValue(d: u32, v: f64): i32 {
  if (!(v === Math.trunc(v))) return E_VALUE;
  const bits = <i64>((d >> 16) & 0xff);
  const signed = (d & SIGNED) !== 0;
  const max = <f64>(signed ? ((<i64>1) << (bits - 1)) - 1 : ((<i64>1) << bits) - 1);
  const min = signed ? -(<f64>((<i64>1) << (bits - 1))) : 0;
  return v < min || v > max ? E_VALUE : E_OK;
}

// Loads four bytes whatever the width (the I/O region extends far past the 254-byte view), moves
// the field's bits to the top of the word, then shifts them down, arithmetically when signed: no
// branch on width, byte order or sign, which mixed tables would otherwise mispredict.
function read(d: u32): f64 {
  const x = load<u32>(IO + <usize>(d & 0xffff));
  const shift = 32 - ((d >> 16) & 0xff);
  const top = select<u32>(x << shift, bswap<u32>(x), (d & LITTLE_ENDIAN) !== 0);
  return select<f64>(<f64>(<i32>top >> shift), <f64>(top >> shift), (d & SIGNED) !== 0);
}

function write(d: u32, v: f64): void {
  const p = IO + <usize>(d & 0xffff);
  const bits = (d >> 16) & 0xff;
  const swap = (d & LITTLE_ENDIAN) === 0;
  const x = <u32>(<i64>v);
  if (bits === 8) {
    store<u8>(p, <u8>x);
  } else if (bits === 16) {
    store<u16>(p, swap ? bswap<u16>(<u16>x) : <u16>x);
  } else {
    store<u32>(p, swap ? bswap<u32>(x) : x);
  }
}

/** Reads `count` fields of the descriptor table from the I/O region into the value table. */
export function decodeFields(count: i32, limit: i32): i32 {
  for (let i = 0; i < count; i++) {
    const d = descriptorAt(i);
    const result = checkDescriptor(d, limit);
    if (result !== E_OK) return fail(result, i);
    store<f64>(VALUES + ((<usize>i) << 3), read(d));
  }
  return E_OK;
}

/**
 * Checks every descriptor and value first, then (when `commit`) writes all fields into the I/O
 * region, so a bad field writes nothing.
 */
export function encodeFields(count: i32, limit: i32, commit: bool): i32 {
  for (let i = 0; i < count; i++) {
    const d = descriptorAt(i);
    let result = checkDescriptor(d, limit);
    if (result === E_OK) result = checkValue(d, load<f64>(VALUES + ((<usize>i) << 3)));
    if (result !== E_OK) return fail(result, i);
  }
  if (commit) {
    for (let i = 0; i < count; i++) write(descriptorAt(i), load<f64>(VALUES + ((<usize>i) << 3)));
  }
  return E_OK;
}
