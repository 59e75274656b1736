/**
 * The exports of a WebAssembly binary with their kinds and function types, read from its type,
 * import, function and export sections (the JavaScript API gives names and kinds but no types).
 */

export type ValueType = 'i32' | 'i64' | 'f32' | 'f64' | 'v128' | 'funcref' | 'externref';
export type Export =
  | { name: string; kind: 'function'; params: ValueType[]; results: ValueType[] }
  | { name: string; kind: 'table' | 'memory' | 'global' };

const VALUE_TYPES: Record<number, ValueType> = {
  127: 'i32',
  126: 'i64',
  125: 'f32',
  124: 'f64',
  123: 'v128',
  112: 'funcref',
  111: 'externref',
};
const KINDS = ['function', 'table', 'memory', 'global'] as const;

class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}

  byte(): number {
    const b = this.bytes[this.at++];
    if (b === undefined) throw new Error('the binary ends inside a section');
    return b;
  }

  /** Unsigned LEB128, as every count, index and size in the format is written. */
  u32(): number {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const b = this.byte();
      value += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return value;
    }
  }

  name(): string {
    const length = this.u32();
    this.at += length;
    return new TextDecoder().decode(this.bytes.subarray(this.at - length, this.at));
  }

  valueType(): ValueType {
    const b = this.byte();
    const type = VALUE_TYPES[b];
    if (!type) throw new Error(`unknown value type 0x${b.toString(16)}`);
    return type;
  }

  vector<T>(item: () => T): T[] {
    return Array.from({ length: this.u32() }, item);
  }

  limits(): void {
    const flags = this.byte();
    this.u32();
    if (flags & 1) this.u32();
  }
}

export function wasmExports(bytes: Uint8Array): Export[] {
  const r = new Reader(bytes);
  r.at = 8; // magic number and version
  const types: { params: ValueType[]; results: ValueType[] }[] = [];
  const functionTypes: number[] = []; // imported functions first, then the module's own
  const exports: Export[] = [];
  while (r.at < bytes.length) {
    const id = r.byte();
    const size = r.u32();
    const end = r.at + size;
    if (id === 1) {
      types.push(
        ...r.vector(() => {
          if (r.byte() !== 0x60) throw new Error('a type that is not a function type');
          return { params: r.vector(() => r.valueType()), results: r.vector(() => r.valueType()) };
        }),
      );
    } else if (id === 2) {
      r.vector(() => {
        r.name();
        r.name();
        const kind = r.byte();
        if (kind === 0) {
          functionTypes.push(r.u32());
        } else if (kind === 1) {
          r.byte(); // the table's element type
          r.limits();
        } else if (kind === 2) {
          r.limits();
        } else {
          r.valueType();
          r.byte(); // mutability
        }
      });
    } else if (id === 3) {
      functionTypes.push(...r.vector(() => r.u32()));
    } else if (id === 7) {
      for (const { name, kind, index } of r.vector(() => ({
        name: r.name(),
        kind: r.byte(),
        index: r.u32(),
      }))) {
        if (kind === 0) {
          const type = types[functionTypes[index] ?? -1];
          if (!type) throw new Error(`export ${name} names a function without a type`);
          exports.push({ name, kind: 'function', ...type });
        } else {
          exports.push({ name, kind: KINDS[kind] as 'table' | 'memory' | 'global' });
        }
      }
    }
    r.at = end;
  }
  return exports;
}
