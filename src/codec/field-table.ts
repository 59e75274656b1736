import { checkField } from './field-checks.ts';
import { type BufferDescriptor, DATA_VIEW_LENGTH, type FieldList, type FieldTable } from './types.ts';

/** Position bits of a packed descriptor that no field can start at, so Wasm reports it out of range. */
const NO_POSITION = 0xffff;
const SIGNED = 1 << 24;
const LITTLE_ENDIAN = 1 << 25;

/**
 * Packs a descriptor into the u32 of the Wasm descriptor table (assembly/layout.ts): bits 0-15
 * position, 16-23 width, bit 24 signed, bit 25 little-endian. Impossible positions and widths are
 * packed so that the Wasm checks fail on them.
 */
export function packDescriptor(d: BufferDescriptor): number {
  const p = d.position;
  const w: number = d.length;
  const position = p >>> 0 === p && p < NO_POSITION ? p : NO_POSITION;
  const width = w === 8 || w === 16 || w === 32 ? w : 0;
  return position | (width << 16) | (d.signed ? SIGNED : 0) | (d.littleEndian ? LITTLE_ENDIAN : 0);
}

class PreparedFieldTable {
  readonly length: number;
  readonly descriptors: readonly Readonly<BufferDescriptor>[];
  // A private field is invisible from outside and survives Object.freeze, which typed arrays refuse.
  readonly #packed: Uint32Array;

  constructor(ds: readonly BufferDescriptor[]) {
    const copies = ds.map((d) => {
      checkField(d, DATA_VIEW_LENGTH);
      const { position, length, signed, littleEndian } = d;
      return Object.freeze({ position, length, signed, littleEndian });
    });
    this.length = copies.length;
    this.descriptors = Object.freeze(copies);
    this.#packed = Uint32Array.from(copies, packDescriptor);
    Object.freeze(this);
  }

  static packed(table: PreparedFieldTable): Uint32Array {
    return table.#packed;
  }
}

/**
 * Validates and packs a descriptor table once; both codecs take the result in place of the array.
 * @example
 * const table = prepareFieldTable(config.rawData.map((item) => item.buffer));
 * codec.decodeFields(frame, table);
 * @throws CodecError 'invalid-width' or 'position-out-of-range' for the first bad descriptor.
 */
export function prepareFieldTable(ds: readonly BufferDescriptor[]): FieldTable {
  return new PreparedFieldTable(ds) as unknown as FieldTable;
}

/** Whether a field list is a prepared table rather than a descriptor array. */
export function isFieldTable(fields: FieldList): fields is FieldTable {
  return fields instanceof PreparedFieldTable;
}

/** The descriptors of a field list, in table order. */
export function descriptorsOf(fields: FieldList): readonly BufferDescriptor[] {
  return isFieldTable(fields) ? fields.descriptors : fields;
}

/** The packed words of a prepared table, for copying into Wasm memory (never to be written). */
export function packedWords(table: FieldTable): Uint32Array {
  return PreparedFieldTable.packed(table as unknown as PreparedFieldTable);
}
