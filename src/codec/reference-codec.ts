import { checkField, checkValue, valueCountError } from './field-checks.ts';
import { descriptorsOf, prepareFieldTable } from './field-table.ts';
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
import {
  type BufferDescriptor,
  type Codec,
  DATA_VIEW_LENGTH,
  type FieldList,
  PASSWORD_LENGTH,
} from './types.ts';

/**
 * The codec in plain TypeScript, one byte at a time: the yardstick the Wasm module is tested
 * against, and a synchronous fallback where the Wasm module cannot be loaded.
 */

const CRC_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    table[i] = c;
  }
  return table;
})();

function crc16(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (let i = 0; i < bytes.length; i++) {
    crc = (crc >>> 8) ^ (CRC_TABLE[(crc ^ (bytes[i] as number)) & 0xff] as number);
  }
  return crc;
}

const viewLimit = (view: Uint8Array): number => Math.min(view.length, DATA_VIEW_LENGTH);

const dataViewOf = (bytes: Uint8Array): DataView =>
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function readField(view: Uint8Array, d: BufferDescriptor): number {
  checkField(d, viewLimit(view));
  const dv = dataViewOf(view);
  const p = d.position;
  const le = d.littleEndian;
  if (d.length === 8) return d.signed ? dv.getInt8(p) : dv.getUint8(p);
  if (d.length === 16) return d.signed ? dv.getInt16(p, le) : dv.getUint16(p, le);
  return d.signed ? dv.getInt32(p, le) : dv.getUint32(p, le);
}

function store(view: Uint8Array, d: BufferDescriptor, value: number): void {
  const dv = dataViewOf(view);
  const p = d.position;
  // Values are checked against the field's signedness already, so the unsigned setter stores the same bits.
  if (d.length === 8) dv.setUint8(p, value & 0xff);
  else if (d.length === 16) dv.setUint16(p, value & 0xffff, d.littleEndian);
  else dv.setUint32(p, value >>> 0, d.littleEndian);
}

function writeField(view: Uint8Array, d: BufferDescriptor, value: number): void {
  checkField(d, viewLimit(view));
  checkValue(d, value);
  store(view, d, value);
}

function dataView(frame: Uint8Array): Uint8Array {
  checkViewLength(frame.length);
  return frame.subarray(0, DATA_VIEW_LENGTH);
}

function decodeFields(frame: Uint8Array, fields: FieldList): number[] {
  const view = dataView(frame);
  return descriptorsOf(fields).map((d) => readField(view, d));
}

function encodeFields(frame: Uint8Array, fields: FieldList, values: readonly number[]): void {
  const view = dataView(frame);
  const ds = descriptorsOf(fields);
  if (values.length !== ds.length) throw valueCountError(values.length, ds.length);
  ds.forEach((d, i) => {
    checkField(d, DATA_VIEW_LENGTH);
    checkValue(d, values[i] as number);
  });
  ds.forEach((d, i) => {
    store(view, d, values[i] as number);
  });
}

function sealFrame(frame: Uint8Array): void {
  checkFrameLength(frame.length);
  const n = frame.length;
  const crc = crc16(frame.subarray(0, n - 2));
  frame[n - 2] = crc & 0xff;
  frame[n - 1] = crc >>> 8;
}

function buildFrame(opcode: number, bufferSize: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  checkOpcode(opcode);
  checkBufferSize(bufferSize, payload.length);
  const frame = new Uint8Array(bufferSize);
  frame[0] = opcode;
  frame.set(payload, 1);
  sealFrame(frame);
  return frame;
}

function verifyFrame(frame: Uint8Array, expectedSize?: number): void {
  checkFrameLength(frame.length, expectedSize);
  const n = frame.length;
  const carried = (frame[n - 2] as number) | ((frame[n - 1] as number) << 8);
  checkCrc(carried, crc16(frame.subarray(0, n - 2)));
}

function passwordCodes(password: string): number[] {
  const codes = passwordCharacters(password);
  if (codes.length > PASSWORD_LENGTH) throw passwordLengthError(codes.length);
  codes.forEach((code, i) => {
    if (code > 255) throw passwordCharacterError(code, i);
  });
  while (codes.length < PASSWORD_LENGTH) codes.push(0);
  return codes;
}

/** The pure-TypeScript codec; same behaviour, errors and messages as the Wasm module. */
export const referenceCodec: Codec = {
  crc16,
  readField,
  writeField,
  prepareFields: prepareFieldTable,
  decodeFields,
  encodeFields,
  buildFrame,
  sealFrame,
  verifyFrame,
  dataView,
  passwordCodes,
  passwordsEqual,
};
