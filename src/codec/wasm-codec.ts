import {
  checkBufferSize,
  checkCrc,
  checkFrameLength,
  checkOpcode,
  checkViewLength,
  passwordCharacterError,
  passwordCharacters,
  passwordLengthError,
  passwordsEqual,
} from './frame-checks.ts';
import { type Codec, CodecError, DATA_VIEW_LENGTH, PASSWORD_LENGTH } from './types.ts';
import { type CodecExports, WasmResult } from './wasm-exports.ts';
import { createWasmFields } from './wasm-fields.ts';

/**
 * The codec over a Wasm instance: inputs go into the static I/O region, one export call does the
 * work, results come back out. Non-zero results become CodecErrors with the shared messages.
 */
export function createWasmCodec(wasm: CodecExports): Codec {
  const buffer = wasm.memory.buffer;
  const ioSize = wasm.ioSize();
  const io = new Uint8Array(buffer, wasm.ioPointer(), ioSize);
  const ioWords = new Uint32Array(buffer, wasm.ioPointer(), PASSWORD_LENGTH);
  const fields = createWasmFields(wasm, io);

  function crc16(bytes: Uint8Array, length = bytes.length): number {
    // A frame fits the region whole: one copy, one call, no subarray allocated.
    if (bytes.length <= ioSize) {
      io.set(bytes);
      return wasm.crc16(0xffff, length);
    }
    let crc = 0xffff;
    for (let at = 0; at < length; at += ioSize) {
      const chunk = bytes.subarray(at, Math.min(at + ioSize, length));
      io.set(chunk);
      crc = wasm.crc16(crc, chunk.length);
    }
    return crc;
  }

  function dataView(frame: Uint8Array): Uint8Array {
    checkViewLength(frame.length);
    return frame.subarray(0, DATA_VIEW_LENGTH);
  }

  function sealFrame(frame: Uint8Array): void {
    checkFrameLength(frame.length);
    const n = frame.length;
    const crc = crc16(frame, n - 2);
    frame[n - 2] = crc & 0xff;
    frame[n - 1] = crc >>> 8;
  }

  return {
    crc16: (bytes) => crc16(bytes),
    ...fields,
    buildFrame(opcode, bufferSize, payload = new Uint8Array(0)) {
      checkOpcode(opcode);
      checkBufferSize(bufferSize, payload.length);
      io.set(payload, 1);
      const result = wasm.buildFrame(opcode, bufferSize, payload.length);
      if (result !== WasmResult.ok)
        throw new CodecError('invalid-buffer-size', `frame not built (code ${result})`);
      return io.slice(0, bufferSize);
    },
    sealFrame,
    verifyFrame(frame, expectedSize) {
      checkFrameLength(frame.length, expectedSize);
      const n = frame.length;
      const carried = (frame[n - 2] as number) | ((frame[n - 1] as number) << 8);
      checkCrc(carried, crc16(frame, n - 2));
    },
    dataView,
    passwordCodes(password) {
      const codes = passwordCharacters(password);
      ioWords.set(codes.slice(0, PASSWORD_LENGTH));
      const result = wasm.passwordCodes(codes.length);
      if (result === WasmResult.passwordLength) throw passwordLengthError(codes.length);
      if (result !== WasmResult.ok) {
        const i = wasm.errorIndex();
        throw passwordCharacterError(codes[i] as number, i);
      }
      return Array.from(io.subarray(0, PASSWORD_LENGTH));
    },
    passwordsEqual,
  };
}
