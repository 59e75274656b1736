import { decode, encode } from 'cborg';

/** A value of an SMP body after decoding: maps with text keys become objects without a prototype. */
export type CborValue = number | string | boolean | null | Uint8Array | CborValue[] | CborMap;
export interface CborMap {
  [key: string]: CborValue;
}

/** A body that is not CBOR, or not the subset SMP uses (text keys, no tags, no big integers). */
export class CborBodyError extends Error {
  override name = 'CborBodyError';
}

const DECODE_OPTIONS = {
  useMaps: true,
  rejectDuplicateMapKeys: true,
  allowUndefined: false,
  allowBigInt: false,
  allowNaN: false,
  allowInfinity: false,
  // Zephyr's older encoder wrote maps of indefinite length; its newer one writes definite ones.
  allowIndefinite: true,
  tags: [],
};

function plain(value: unknown): CborValue {
  if (value instanceof Map) {
    // No prototype: a key named "__proto__" is one more key, never the object's prototype.
    const out: CborMap = Object.create(null);
    for (const [key, item] of value) {
      if (typeof key !== 'string') throw new CborBodyError('a map key is not text');
      out[key] = plain(item);
    }
    return out;
  }
  if (Array.isArray(value)) return value.map(plain);
  if (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    typeof value === 'number' ||
    value instanceof Uint8Array
  )
    return value;
  throw new CborBodyError(`a value of type ${typeof value} is not used by SMP`);
}

/**
 * The CBOR of one SMP body: a map.
 * @example encodeBody({ off: 0 }) // a1 63 6f 66 66 00
 */
export function encodeBody(body: Record<string, unknown>): Uint8Array {
  return encode(body);
}

/**
 * Reads an SMP body: one CBOR map, nothing after it.
 * @throws CborBodyError for anything else (bad CBOR, a tag, a big integer, a key that is not text).
 */
export function decodeBody(bytes: Uint8Array): CborMap {
  let value: unknown;
  try {
    value = decode(bytes, DECODE_OPTIONS);
  } catch (cause) {
    throw new CborBodyError(cause instanceof Error ? cause.message : 'not CBOR', { cause });
  }
  const body = plain(value);
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof Uint8Array)
    throw new CborBodyError('the body is not a map');
  return body;
}
