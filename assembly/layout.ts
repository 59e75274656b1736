// The static I/O region: the face writes inputs here and reads results back, so no call allocates.

/** Bytes of the frame / CRC input region. */
export const IO_SIZE: i32 = 65536;
/** Descriptors (and values) per batch call. */
export const MAX_FIELDS: i32 = 1024;
/** Bytes of the data view that fields are addressed through. */
export const VIEW_LENGTH: i32 = 254;

export const IO: usize = memory.data(IO_SIZE, 16);
/** One u32 per field: bits 0-15 position, 16-23 width in bits, bit 24 signed, bit 25 little-endian. */
export const DESCRIPTORS: usize = memory.data(MAX_FIELDS << 2, 16);
/** One f64 per field: values to encode, or decoded values. */
export const VALUES: usize = memory.data(MAX_FIELDS << 3, 16);
/** Sixteen CRC tables of 256 u16 entries for slice-by-16. */
export const CRC_TABLES: usize = memory.data(16 * 256 * 2, 16);

export function ioPointer(): usize {
  return IO;
}

export function ioSize(): i32 {
  return IO_SIZE;
}

export function descriptorPointer(): usize {
  return DESCRIPTORS;
}

export function valuePointer(): usize {
  return VALUES;
}

export function maxFields(): i32 {
  return MAX_FIELDS;
}

/** SHA-256 state: eight u32 words, a 64-byte block being filled, the u64 byte count, the bytes in the block. */
export const SHA_STATE_SIZE: i32 = 112;
export const SHA_STATE: usize = memory.data(SHA_STATE_SIZE, 16);
/** The last SHA-256 digest (32 bytes), written by sha256End. */
export const DIGEST: usize = memory.data(32, 16);
/** What imageHeader and imageTlvs found: IMAGE_FIELDS u32 slots (assembly/image.ts names them). */
export const IMAGE_FIELDS: i32 = 16;
export const IMAGE: usize = memory.data(IMAGE_FIELDS << 2, 16);

export function sha256StatePointer(): usize {
  return SHA_STATE;
}

export function sha256StateSize(): i32 {
  return SHA_STATE_SIZE;
}

export function digestPointer(): usize {
  return DIGEST;
}

export function imagePointer(): usize {
  return IMAGE;
}
