import { fieldBytes, positionError, valueCountError, valueError, widthError } from './field-checks.ts';
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
import { type BufferDescriptor, type Codec, CodecError, DATA_VIEW_LENGTH, PASSWORD_LENGTH } from './types.ts';
import { type CodecExports, WasmResult } from './wasm-exports.ts';

const NO_POSITION = 0xffff;
const SIGNED = 1 << 24;
const LITTLE_ENDIAN = 1 << 25;

/** Packs a descriptor into the u32 the Wasm table holds; impossible positions/widths fail in Wasm. */
function pack(d: BufferDescriptor): number {
  const p = d.position;
  const w: number = d.length;
  const position = p >>> 0 === p && p < NO_POSITION ? p : NO_POSITION;
  const width = w === 8 || w === 16 || w === 32 ? w : 0;
  return position | (width << 16) | (d.signed ? SIGNED : 0) | (d.littleEndian ? LITTLE_ENDIAN : 0);
}

/**
 * The codec over a Wasm instance: inputs go into the static I/O region, one export call does the
 * work, results come back out. Non-zero results become CodecErrors with the shared messages.
 */
export function createWasmCodec(wasm: CodecExports): Codec {
  const buffer = wasm.memory.buffer;
  const ioSize = wasm.ioSize();
  const io = new Uint8Array(buffer, wasm.ioPointer(), ioSize);
  const ioWords = new Uint32Array(buffer, wasm.ioPointer(), PASSWORD_LENGTH);
  const maxFields = wasm.maxFields();
  const table = new Uint32Array(buffer, wasm.descriptorPointer(), maxFields);
  const values = new Float64Array(buffer, wasm.valuePointer(), maxFields);

  function fieldError(
    result: number,
    ds: readonly BufferDescriptor[],
    offset: number,
    limit: number,
    vs?: readonly number[],
  ): CodecError {
    const i = offset + wasm.errorIndex();
    const d = ds[i] as BufferDescriptor;
    if (result === WasmResult.width) return widthError(d);
    if (result === WasmResult.position) return positionError(d, limit);
    return valueError(d, vs?.[i] as number);
  }

  function loadTable(
    ds: readonly BufferDescriptor[],
    from: number,
    count: number,
    vs?: readonly number[],
  ): void {
    for (let i = 0; i < count; i++) {
      table[i] = pack(ds[from + i] as BufferDescriptor);
      if (vs) values[i] = vs[from + i] as number;
    }
  }

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

  /** Copies the frame's data view into the region (the whole frame when it fits, avoiding a subarray). */
  function loadView(frame: Uint8Array): void {
    checkViewLength(frame.length);
    io.set(frame.length <= ioSize ? frame : frame.subarray(0, DATA_VIEW_LENGTH));
  }

  function decodeInto(ds: readonly BufferDescriptor[], limit: number, out: number[]): void {
    for (let from = 0; from < ds.length; from += maxFields) {
      const count = Math.min(maxFields, ds.length - from);
      loadTable(ds, from, count);
      const result = wasm.decodeFields(count, limit);
      if (result !== WasmResult.ok) throw fieldError(result, ds, from, limit);
      for (let i = 0; i < count; i++) out[from + i] = values[i] as number;
    }
  }

  // Checks every chunk before writing any, so tables longer than the Wasm table stay all-or-nothing.
  function encodeAll(ds: readonly BufferDescriptor[], vs: readonly number[], limit: number): void {
    const single = ds.length <= maxFields;
    for (const commit of single ? [1] : [0, 1]) {
      for (let from = 0; from < ds.length; from += maxFields) {
        const count = Math.min(maxFields, ds.length - from);
        loadTable(ds, from, count, vs);
        const result = wasm.encodeFields(count, limit, commit);
        if (result !== WasmResult.ok) throw fieldError(result, ds, from, limit, vs);
      }
    }
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
    readField(view, d) {
      const limit = Math.min(view.length, DATA_VIEW_LENGTH);
      io.set(view.subarray(0, limit));
      const out: number[] = [];
      decodeInto([d], limit, out);
      return out[0] as number;
    },
    writeField(view, d, value) {
      const limit = Math.min(view.length, DATA_VIEW_LENGTH);
      encodeAll([d], [value], limit);
      // Only the field's own bytes changed in the region; copy exactly those back.
      view.set(io.subarray(d.position, d.position + fieldBytes(d)), d.position);
    },
    decodeFields(frame, ds) {
      loadView(frame);
      const out = new Array<number>(ds.length);
      decodeInto(ds, DATA_VIEW_LENGTH, out);
      return out;
    },
    encodeFields(frame, ds, vs) {
      loadView(frame);
      if (vs.length !== ds.length) throw valueCountError(vs.length, ds.length);
      encodeAll(ds, vs, DATA_VIEW_LENGTH);
      frame.set(io.subarray(0, DATA_VIEW_LENGTH));
    },
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
