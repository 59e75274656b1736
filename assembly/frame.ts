import { crcUpdate } from './crc';
import {
  E_BUFFER_SIZE,
  E_FRAME_LENGTH,
  E_OK,
  E_OPCODE,
  E_PASSWORD_CHARACTER,
  E_PASSWORD_LENGTH,
  fail,
} from './errors';
import { IO, IO_SIZE } from './layout';

const PASSWORD_LENGTH: i32 = 16;

/** Writes the CRC of all but the last two bytes of the `length`-byte frame in the I/O region, low byte first. */
export function sealFrame(length: i32): i32 {
  if (length < 3 || length > IO_SIZE) return fail(E_FRAME_LENGTH, -1);
  const crc = crcUpdate(0xffff, IO, <usize>(length - 2));
  // Wasm memory is little-endian, so one u16 store puts the low byte first, as Modbus sends it.
  store<u16>(IO + <usize>(length - 2), <u16>crc);
  return E_OK;
}

/**
 * Builds a `size`-byte frame in the I/O region whose payload (`payloadLength` bytes) the caller
 * wrote from byte 1: opcode at byte 0, zeros after the payload, CRC in the last two bytes.
 */
export function buildFrame(opcode: i32, size: i32, payloadLength: i32): i32 {
  if (opcode < 0 || opcode > 255) return fail(E_OPCODE, -1);
  if (size < 3 || size > IO_SIZE || payloadLength < 0 || payloadLength > size - 3) {
    return fail(E_BUFFER_SIZE, -1);
  }
  store<u8>(IO, <u8>opcode);
  memory.fill(IO + 1 + <usize>payloadLength, 0, <usize>(size - 3 - payloadLength));
  return sealFrame(size);
}

/**
 * Turns `count` character codes (u32 each, at the start of the I/O region) into the 16 password
 * bytes pass_00…pass_15, padded with 0, written at the start of the region.
 */
export function passwordCodes(count: i32): i32 {
  if (count > PASSWORD_LENGTH) return fail(E_PASSWORD_LENGTH, -1);
  for (let i = 0; i < count; i++) {
    if (load<u32>(IO + ((<usize>i) << 2)) > 255) return fail(E_PASSWORD_CHARACTER, i);
  }
  for (let i = 0; i < PASSWORD_LENGTH; i++) {
    store<u8>(IO + <usize>i, i < count ? <u8>load<u32>(IO + ((<usize>i) << 2)) : 0);
  }
  return E_OK;
}
