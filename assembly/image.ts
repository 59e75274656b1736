import {
  E_HASH,
  E_IMAGE_HEADER,
  E_IMAGE_MAGIC,
  E_IMAGE_SIZE,
  E_OK,
  E_TLV_DUPLICATE,
  E_TLV_LENGTH,
  E_TLV_MAGIC,
  E_TLV_MISSING,
  E_TLV_PLACE,
  E_TLV_VALUE,
  fail,
} from './errors';
import { DIGEST, IMAGE, IO, IO_SIZE } from './layout';

// MCUboot's image format (docs.mcuboot.com, "Image format"): a 32-byte little-endian header, the
// payload, then a TLV area: an optional protected part (magic 0x6908, covered by the hash and so
// by the signature) and the unprotected part (magic 0x6907) holding the hash and the signature.

const IMAGE_MAGIC: u32 = 0x96f3b83d;
const HEADER_SIZE: u32 = 32;
const PROTECTED_MAGIC: u32 = 0x6908;
const INFO_MAGIC: u32 = 0x6907;

/** The TLVs the fleet needs, by MCUboot's type numbers; the model id is a custom (0xa0+) type. */
const TLV_KEYHASH: u32 = 0x01;
const TLV_SHA256: u32 = 0x10;
const TLV_ED25519: u32 = 0x24;
const TLV_MODEL: u32 = 0xa0;
const MAX_MODEL_LENGTH: u32 = 64;

// Slots of the image region (u32 each), read by the face after a call.
const HDR_SIZE: usize = 0;
const PROTECT_SIZE: usize = 4;
const IMG_SIZE: usize = 8;
const FLAGS: usize = 12;
const MAJOR: usize = 16;
const MINOR: usize = 20;
const REVISION: usize = 24;
const BUILD: usize = 28;
const LOAD_ADDR: usize = 32;
const HASH_AT: usize = 36;
const SIGNATURE_AT: usize = 40;
const KEYHASH_AT: usize = 44;
const MODEL_AT: usize = 48;
const MODEL_LENGTH: usize = 52;
const NOT_FOUND: u32 = 0xffffffff;

/**
 * Reads the 32-byte header at the start of the I/O region into the image region: the magic, a
 * header size of at least 32 bytes, and sizes whose sum fits 32 bits.
 */
export function imageHeader(): i32 {
  if (load<u32>(IO) !== IMAGE_MAGIC) return fail(E_IMAGE_MAGIC, -1);
  const hdrSize = <u32>load<u16>(IO, 8);
  const protectSize = <u32>load<u16>(IO, 10);
  const imgSize = load<u32>(IO, 12);
  if (hdrSize < HEADER_SIZE) return fail(E_IMAGE_HEADER, -1);
  if (<u64>hdrSize + <u64>imgSize + <u64>protectSize + 4 > <u64>0xffffffff) return fail(E_IMAGE_SIZE, -1);
  store<u32>(IMAGE + HDR_SIZE, hdrSize);
  store<u32>(IMAGE + PROTECT_SIZE, protectSize);
  store<u32>(IMAGE + IMG_SIZE, imgSize);
  store<u32>(IMAGE + FLAGS, load<u32>(IO, 16));
  store<u32>(IMAGE + MAJOR, <u32>load<u8>(IO, 20));
  store<u32>(IMAGE + MINOR, <u32>load<u8>(IO, 21));
  store<u32>(IMAGE + REVISION, <u32>load<u16>(IO, 22));
  store<u32>(IMAGE + BUILD, load<u32>(IO, 24));
  store<u32>(IMAGE + LOAD_ADDR, load<u32>(IO, 4));
  return E_OK;
}

/** Records one TLV the fleet needs: in its area, once, with a value of the right length. */
function record(type: u32, at: u32, length: u32, isProtected: bool): i32 {
  let slot: usize = 0;
  let wantProtected = false;
  let lengthOk = false;
  if (type === TLV_SHA256) {
    slot = HASH_AT;
    lengthOk = length === 32;
  } else if (type === TLV_KEYHASH) {
    slot = KEYHASH_AT;
    lengthOk = length === 32;
  } else if (type === TLV_ED25519) {
    slot = SIGNATURE_AT;
    lengthOk = length === 64;
  } else if (type === TLV_MODEL) {
    slot = MODEL_AT;
    wantProtected = true;
    lengthOk = length >= 1 && length <= MAX_MODEL_LENGTH;
  } else {
    return E_OK; // MCUboot skips TLVs it does not know; so does the fleet.
  }
  if (isProtected !== wantProtected) return fail(E_TLV_PLACE, <i32>type);
  if (load<u32>(IMAGE + slot) !== NOT_FOUND) return fail(E_TLV_DUPLICATE, <i32>type);
  if (!lengthOk) return fail(E_TLV_VALUE, <i32>type);
  store<u32>(IMAGE + slot, at);
  if (slot === MODEL_AT) store<u32>(IMAGE + MODEL_LENGTH, length);
  return E_OK;
}

/** Walks the entries of one TLV part, [start + 4, end) of the I/O region, after its info header. */
function walk(start: u32, end: u32, isProtected: bool): i32 {
  let at = start + 4;
  while (at < end) {
    if (at + 4 > end) return fail(E_TLV_LENGTH, <i32>at);
    const type = <u32>load<u16>(IO + <usize>at);
    const length = <u32>load<u16>(IO + <usize>at, 2);
    if (at + 4 + length > end) return fail(E_TLV_LENGTH, <i32>at);
    const result = record(type, at + 4, length, isProtected);
    if (result !== E_OK) return result;
    at += 4 + length;
  }
  return E_OK;
}

/** Checks one part's info header at `start`: its magic, and a total that ends the part at `end`. */
function info(start: u32, end: u32, magic: u32): i32 {
  if (<u32>load<u16>(IO + <usize>start) !== magic) return fail(E_TLV_MAGIC, <i32>start);
  if (<u32>load<u16>(IO + <usize>start, 2) !== end - start) return fail(E_TLV_LENGTH, <i32>start);
  return E_OK;
}

/**
 * Checks the TLV area, copied to the start of the I/O region (`length` bytes, the protected part's
 * `protectedLength` first), against the digest that sha256End left in the digest region: both
 * parts' magic and totals, every entry inside its part, the hash, key hash and signature in the
 * unprotected part, the model id in the protected one, each once, and the hash equal to the digest.
 */
export function imageTlvs(protectedLength: i32, length: i32): i32 {
  if (length < 0 || length > IO_SIZE || protectedLength < 0 || protectedLength > length - 4) {
    return fail(E_TLV_LENGTH, -1);
  }
  for (let slot = HASH_AT; slot <= MODEL_AT; slot += 4) store<u32>(IMAGE + slot, NOT_FOUND);
  store<u32>(IMAGE + MODEL_LENGTH, 0);
  const p = <u32>protectedLength;
  const n = <u32>length;
  let result = E_OK;
  if (p > 0) {
    if (p < 4) return fail(E_TLV_LENGTH, 0);
    result = info(0, p, PROTECTED_MAGIC);
    if (result === E_OK) result = walk(0, p, true);
    if (result !== E_OK) return result;
  }
  result = info(p, n, INFO_MAGIC);
  if (result === E_OK) result = walk(p, n, false);
  if (result !== E_OK) return result;
  if (load<u32>(IMAGE + HASH_AT) === NOT_FOUND) return fail(E_TLV_MISSING, <i32>TLV_SHA256);
  if (load<u32>(IMAGE + KEYHASH_AT) === NOT_FOUND) return fail(E_TLV_MISSING, <i32>TLV_KEYHASH);
  if (load<u32>(IMAGE + SIGNATURE_AT) === NOT_FOUND) return fail(E_TLV_MISSING, <i32>TLV_ED25519);
  if (load<u32>(IMAGE + MODEL_AT) === NOT_FOUND) return fail(E_TLV_MISSING, <i32>TLV_MODEL);
  const hash = IO + <usize>load<u32>(IMAGE + HASH_AT);
  for (let i: usize = 0; i < 32; i += 8) {
    if (load<u64>(hash + i) !== load<u64>(DIGEST + i)) return fail(E_HASH, <i32>TLV_SHA256);
  }
  return E_OK;
}
