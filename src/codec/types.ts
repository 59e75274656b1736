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

/** The codec's functions; the Wasm module and the pure-TypeScript reference both implement it. */
export interface Codec {
  /** CRC-16/MODBUS (init 0xFFFF, reflected poly 0xA001); crc16(ascii "123456789") === 0x4B37. */
  crc16(bytes: Uint8Array): number;
  /** Reads one field; throws 'invalid-width' or 'position-out-of-range'. */
  readField(view: Uint8Array, d: BufferDescriptor): number;
  /** Writes one field in place; throws 'invalid-width', 'position-out-of-range' or 'value-out-of-range'. */
  writeField(view: Uint8Array, d: BufferDescriptor, value: number): void;
  /**
   * Validates and packs a descriptor table once, for the hot path; throws 'invalid-width' or
   * 'position-out-of-range' (254-byte view) for the first bad descriptor.
   */
  prepareFields(ds: readonly BufferDescriptor[]): FieldTable;
  /** All fields of a table in ONE Wasm call; reads through dataView(frame). */
  decodeFields(frame: Uint8Array, fields: FieldList): number[];
  /** All fields in ONE Wasm call, in place; validates every value first, so a bad value writes nothing. */
  encodeFields(frame: Uint8Array, fields: FieldList, values: readonly number[]): void;
  /** bufferSize bytes, byte 0 = opcode, payload from byte 1, CRC in the last two bytes (low byte first). */
  buildFrame(opcode: number, bufferSize: number, payload?: Uint8Array): Uint8Array;
  /** Recomputes the CRC over all but the last two bytes and writes it there, in place. */
  sealFrame(frame: Uint8Array): void;
  /** Throws CodecError 'frame-length' (when expectedSize given and differs, or < 3) or 'crc-mismatch'. */
  verifyFrame(frame: Uint8Array, expectedSize?: number): void;
  /** The 254-byte data view of a received frame: frame bytes [0, 254). Throws 'frame-length' if shorter. */
  dataView(frame: Uint8Array): Uint8Array;
  /** 16 character codes, padded with 0 (pass_00…pass_15). Throws password-too-long / password-character (>255). */
  passwordCodes(password: string): number[];
  /** Equal only with the same length and content. */
  passwordsEqual(a: readonly number[], b: readonly number[]): boolean;
}
