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
