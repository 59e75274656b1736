import { fieldBytes, positionError, valueCountError, valueError, widthError } from './field-checks.ts';
import {
  descriptorsOf,
  isFieldTable,
  packDescriptor,
  packedWords,
  prepareFieldTable,
} from './field-table.ts';
import { checkViewLength } from './frame-checks.ts';
import {
  type BufferDescriptor,
  type Codec,
  type CodecError,
  DATA_VIEW_LENGTH,
  type FieldList,
  type FieldTable,
} from './types.ts';
import { type CodecExports, WasmResult } from './wasm-exports.ts';

type FieldFunctions = Pick<
  Codec,
  'readField' | 'writeField' | 'prepareFields' | 'decodeFields' | 'encodeFields'
>;

/**
 * The field functions over a Wasm instance: descriptors go into the Wasm descriptor table (packed
 * per call from an array, or copied from a prepared table), values into the value table, and one
 * export call reads or writes every field.
 */
export function createWasmFields(wasm: CodecExports, io: Uint8Array): FieldFunctions {
  const maxFields = wasm.maxFields();
  const table = new Uint32Array(wasm.memory.buffer, wasm.descriptorPointer(), maxFields);
  const values = new Float64Array(wasm.memory.buffer, wasm.valuePointer(), maxFields);
  // The prepared table whose words fill the descriptor table now: decoding it again copies nothing.
  let resident: FieldTable | undefined;

  function fieldError(
    result: number,
    fields: FieldList,
    index: number,
    limit: number,
    vs?: readonly number[],
  ): CodecError {
    const d = descriptorsOf(fields)[index] as BufferDescriptor;
    if (result === WasmResult.width) return widthError(d);
    if (result === WasmResult.position) return positionError(d, limit);
    return valueError(d, vs?.[index] as number);
  }

  function loadTable(fields: FieldList, from: number, count: number, vs?: readonly number[]): void {
    if (isFieldTable(fields)) {
      const whole = count === fields.length;
      if (!(whole && resident === fields)) {
        const words = packedWords(fields);
        table.set(whole ? words : words.subarray(from, from + count));
        resident = whole ? fields : undefined;
      }
    } else {
      for (let i = 0; i < count; i++) table[i] = packDescriptor(fields[from + i] as BufferDescriptor);
      resident = undefined;
    }
    if (vs) for (let i = 0; i < count; i++) values[i] = vs[from + i] as number;
  }

  function decodeInto(fields: FieldList, limit: number, out: number[]): void {
    for (let from = 0; from < fields.length; from += maxFields) {
      const count = Math.min(maxFields, fields.length - from);
      loadTable(fields, from, count);
      const result = wasm.decodeFields(count, limit);
      if (result !== WasmResult.ok) throw fieldError(result, fields, from + wasm.errorIndex(), limit);
      for (let i = 0; i < count; i++) out[from + i] = values[i] as number;
    }
  }

  // Checks every chunk before writing any, so tables longer than the Wasm table stay all-or-nothing.
  function encodeAll(fields: FieldList, vs: readonly number[], limit: number): void {
    const passes = fields.length <= maxFields ? [1] : [0, 1];
    for (const commit of passes) {
      for (let from = 0; from < fields.length; from += maxFields) {
        const count = Math.min(maxFields, fields.length - from);
        loadTable(fields, from, count, vs);
        const result = wasm.encodeFields(count, limit, commit);
        if (result !== WasmResult.ok) throw fieldError(result, fields, from + wasm.errorIndex(), limit, vs);
      }
    }
  }

  /** Copies the frame's data view into the region (the whole frame when it fits, avoiding a subarray). */
  function loadView(frame: Uint8Array): void {
    checkViewLength(frame.length);
    io.set(frame.length <= io.length ? frame : frame.subarray(0, DATA_VIEW_LENGTH));
  }

  return {
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
    prepareFields: prepareFieldTable,
    decodeFields(frame, fields) {
      loadView(frame);
      const out = new Array<number>(fields.length);
      decodeInto(fields, DATA_VIEW_LENGTH, out);
      return out;
    },
    encodeFields(frame, fields, vs) {
      loadView(frame);
      if (vs.length !== fields.length) throw valueCountError(vs.length, fields.length);
      encodeAll(fields, vs, DATA_VIEW_LENGTH);
      frame.set(io.subarray(0, DATA_VIEW_LENGTH));
    },
  };
}
