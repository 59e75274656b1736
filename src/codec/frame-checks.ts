import { CodecError, DATA_VIEW_LENGTH, MAX_BUFFER_SIZE, PASSWORD_LENGTH } from './types.ts';

/** Validation and error messages for frames and passwords, shared by both implementations. */

/** Throws 'invalid-opcode' unless `opcode` is a whole number from 0 to 255. */
export function checkOpcode(opcode: number): void {
  if (!Number.isInteger(opcode) || opcode < 0 || opcode > 255) {
    throw new CodecError('invalid-opcode', `opcode ${opcode} is not a whole number from 0 to 255`);
  }
}

/** Throws 'invalid-buffer-size' unless the frame can hold the opcode, the payload and the CRC. */
export function checkBufferSize(bufferSize: number, payloadLength: number): void {
  if (!Number.isInteger(bufferSize) || bufferSize < 3 || bufferSize > MAX_BUFFER_SIZE) {
    throw new CodecError(
      'invalid-buffer-size',
      `buffer size ${bufferSize} is not a whole number from 3 to ${MAX_BUFFER_SIZE}`,
    );
  }
  if (payloadLength > bufferSize - 3) {
    throw new CodecError(
      'invalid-buffer-size',
      `payload of ${payloadLength} bytes does not fit a ${bufferSize}-byte frame (room for ${bufferSize - 3})`,
    );
  }
}

/** Throws 'frame-length' when a frame cannot carry an opcode and a CRC, or differs from `expectedSize`. */
export function checkFrameLength(length: number, expectedSize?: number): void {
  if (expectedSize !== undefined && length !== expectedSize) {
    throw new CodecError('frame-length', `frame of ${length} bytes; expected ${expectedSize}`);
  }
  if (length < 3) {
    throw new CodecError(
      'frame-length',
      `frame of ${length} bytes is too short to hold an opcode and a CRC (at least 3)`,
    );
  }
}

/** Throws 'frame-length' when a frame is shorter than the 254-byte data view. */
export function checkViewLength(length: number): void {
  if (length < DATA_VIEW_LENGTH) {
    throw new CodecError(
      'frame-length',
      `frame of ${length} bytes is shorter than the ${DATA_VIEW_LENGTH}-byte data view`,
    );
  }
}

const hex4 = (n: number): string => `0x${n.toString(16).padStart(4, '0')}`;

/** Throws 'crc-mismatch' unless the CRC carried in the frame equals the one its bytes compute. */
export function checkCrc(carried: number, computed: number): void {
  if (carried !== computed) {
    throw new CodecError(
      'crc-mismatch',
      `CRC mismatch: the frame carries ${hex4(carried)} but its bytes compute ${hex4(computed)}`,
    );
  }
}

/** Character codes of a password, one per character (code point), before any check. */
export function passwordCharacters(password: string): number[] {
  return Array.from(password, (ch) => ch.codePointAt(0) ?? 0);
}

export function passwordLengthError(count: number): CodecError {
  return new CodecError(
    'password-too-long',
    `password has ${count} characters; at most ${PASSWORD_LENGTH} are allowed`,
  );
}

export function passwordCharacterError(code: number, index: number): CodecError {
  return new CodecError(
    'password-character',
    `password character ${index + 1} (${String.fromCodePoint(code)}, code ${code}) is above code 255`,
  );
}

/** Equal only with the same length and the same codes in the same order. */
export function passwordsEqual(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((code, i) => code === b[i]);
}
