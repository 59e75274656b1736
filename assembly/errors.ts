// Result codes returned by every checked export; the TypeScript face maps each one to a CodecError
// code and builds the message from the input that failed (see src/codec/wasm-codec.ts).
export const E_OK: i32 = 0;
export const E_WIDTH: i32 = 1;
export const E_POSITION: i32 = 2;
export const E_VALUE: i32 = 3;
export const E_FRAME_LENGTH: i32 = 4;
export const E_PASSWORD_LENGTH: i32 = 5;
export const E_PASSWORD_CHARACTER: i32 = 6;
export const E_OPCODE: i32 = 7;
export const E_BUFFER_SIZE: i32 = 8;
// Firmware images (assembly/image.ts); errorIndex() names the TLV type or the offset in the TLV area.
export const E_IMAGE_MAGIC: i32 = 9;
export const E_IMAGE_HEADER: i32 = 10;
export const E_IMAGE_SIZE: i32 = 11;
export const E_TLV_MAGIC: i32 = 12;
export const E_TLV_LENGTH: i32 = 13;
export const E_TLV_MISSING: i32 = 14;
export const E_TLV_DUPLICATE: i32 = 15;
export const E_TLV_PLACE: i32 = 16;
export const E_TLV_VALUE: i32 = 17;
export const E_HASH: i32 = 18;

// Index of the field or character that failed, read by the face after a non-zero result.
let failedAt: i32 = -1;

export function fail(code: i32, index: i32): i32 {
  failedAt = index;
  return code;
}

export function errorIndex(): i32 {
  return failedAt;
}
