/** Width of a field in bits. */
export type FieldWidth = 8 | 16 | 32;

/**
 * Where a value lives in a frame: `position` is the byte offset from the start of the frame
 * (byte 0 is the opcode), `length` the width in bits.
 */
export interface BufferDescriptor {
  position: number;
  length: FieldWidth;
  signed: boolean;
  littleEndian: boolean;
}

/** Raw data is read through the first 254 bytes of a received frame. */
export const DATA_VIEW_LENGTH = 254;

/** Largest frame `buildFrame` accepts (the size of the codec's I/O region). */
export const MAX_BUFFER_SIZE = 65536;

/** A password has at most this many characters (`pass_00`…`pass_15`). */
export const PASSWORD_LENGTH = 16;

export type CodecErrorCode =
  | 'position-out-of-range'
  | 'invalid-width'
  | 'value-out-of-range'
  | 'frame-length'
  | 'crc-mismatch'
  | 'password-too-long'
  | 'password-character'
  | 'invalid-opcode'
  | 'invalid-buffer-size';

/** Every bad input to the codec is one of these; `message` names what is wrong. */
export class CodecError extends Error {
  readonly code: CodecErrorCode;

  constructor(code: CodecErrorCode, message: string) {
    super(message);
    this.name = 'CodecError';
    this.code = code;
  }
}

declare const FIELD_TABLE: unique symbol;

/**
 * A descriptor table validated and packed once (`codec.prepareFields`), for frames decoded or
 * encoded again and again with the same fields. Frozen and opaque: the packed words are out of
 * reach, and changing the descriptors it was made from changes nothing. Works with either codec.
 */
export interface FieldTable {
  readonly [FIELD_TABLE]: true;
  /** Number of fields. */
  readonly length: number;
  /** Frozen copies of the descriptors, in table order. */
  readonly descriptors: readonly Readonly<BufferDescriptor>[];
}

/** The fields of a batch call: a descriptor array, or a table prepared from one. */
export type FieldList = readonly BufferDescriptor[] | FieldTable;

/**
 * The codec's functions; the Wasm module (`loadCodec`) and the pure-TypeScript reference
 * (`referenceCodec`) both implement it, with the same results, error codes and messages.
 */
export interface Codec {
  /**
   * CRC-16/MODBUS (init 0xFFFF, reflected poly 0xA001, no final XOR) of any number of bytes.
   * @example codec.crc16(new TextEncoder().encode('123456789')) // 0x4b37
   */
  crc16(bytes: Uint8Array): number;
  /**
   * Reads one field from a view of up to 254 bytes.
   * @example codec.readField(Uint8Array.of(0, 0xff, 0xfe), { position: 1, length: 16, signed: true, littleEndian: false }) // -2
   * @throws CodecError 'invalid-width' or 'position-out-of-range' (past the view, or not a byte offset).
   */
  readField(view: Uint8Array, d: BufferDescriptor): number;
  /**
   * Writes one field in place; only the field's own bytes change.
   * @example codec.writeField(view, { position: 2, length: 16, signed: true, littleEndian: true }, -2) // fe ff at 2
   * @throws CodecError 'invalid-width', 'position-out-of-range', or 'value-out-of-range' (never wrapped).
   */
  writeField(view: Uint8Array, d: BufferDescriptor, value: number): void;
  /**
   * Checks and packs a descriptor table once, for tables decoded or encoded frame after frame.
   * @example const table = codec.prepareFields(config.rawData.map((item) => item.buffer));
   * @throws CodecError 'invalid-width' or 'position-out-of-range' (254-byte view) for the first bad one.
   */
  prepareFields(ds: readonly BufferDescriptor[]): FieldTable;
  /**
   * Every field of a table, in table order, in ONE Wasm call; reads through `dataView(frame)`.
   * @example codec.decodeFields(frame, table) // [1, 258, -5, …]
   * @throws CodecError 'frame-length' (shorter than 254 bytes), or the first bad descriptor's error.
   */
  decodeFields(frame: Uint8Array, fields: FieldList): number[];
  /**
   * Writes every field in ONE Wasm call, in place; every value is checked first, so a bad one
   * writes nothing. Does not touch the CRC: call `sealFrame` after.
   * @example codec.encodeFields(frame, table, [1, 258, -5]); codec.sealFrame(frame);
   * @throws CodecError 'frame-length', a bad descriptor's error, or 'value-out-of-range' (a value
   *   that does not fit, or a value count that differs from the field count).
   */
  encodeFields(frame: Uint8Array, fields: FieldList, values: readonly number[]): void;
  /**
   * A new frame of `bufferSize` bytes: opcode at byte 0, payload from byte 1, zeros, then the CRC
   * in the last two bytes (low byte first).
   * @example codec.buildFrame(0x01, 8, Uint8Array.of(3, 0, 0, 0, 10)) // 01 03 00 00 00 0a c5 cd
   * @throws CodecError 'invalid-opcode' (not 0–255) or 'invalid-buffer-size' (payload does not fit).
   */
  buildFrame(opcode: number, bufferSize: number, payload?: Uint8Array): Uint8Array;
  /**
   * Recomputes the CRC over all but the last two bytes and writes it there, in place.
   * @example frame[5] = 7; codec.sealFrame(frame);
   * @throws CodecError 'frame-length' for a frame shorter than 3 bytes.
   */
  sealFrame(frame: Uint8Array): void;
  /**
   * Returns normally only for a frame of the right length whose CRC matches its bytes.
   * @example codec.verifyFrame(received, 255)
   * @throws CodecError 'frame-length' (differs from `expectedSize`, or shorter than 3) or 'crc-mismatch'.
   */
  verifyFrame(frame: Uint8Array, expectedSize?: number): void;
  /**
   * The 254-byte data view of a received frame: frame bytes [0, 254), the same memory.
   * @example codec.dataView(frame).length // 254
   * @throws CodecError 'frame-length' for a frame shorter than 254 bytes.
   */
  dataView(frame: Uint8Array): Uint8Array;
  /**
   * The 16 character codes of a password (pass_00…pass_15), padded with 0.
   * @example codec.passwordCodes('Ab1') // [65, 98, 49, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
   * @throws CodecError 'password-too-long' (more than 16) or 'password-character' (code above 255).
   */
  passwordCodes(password: string): number[];
  /**
   * Equal only with the same length and the same codes in the same order.
   * @example codec.passwordsEqual(codec.passwordCodes('1234'), deviceCodes)
   */
  passwordsEqual(a: readonly number[], b: readonly number[]): boolean;
}
