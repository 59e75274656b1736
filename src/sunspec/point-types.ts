/** Every point type of the SunSpec information model. */
export const POINT_TYPES = [
  'int16',
  'int32',
  'int64',
  'uint16',
  'uint32',
  'uint64',
  'raw16',
  'acc16',
  'acc32',
  'acc64',
  'enum16',
  'enum32',
  'bitfield16',
  'bitfield32',
  'bitfield64',
  'string',
  'sunssf',
  'count',
  'float32',
  'float64',
  'pad',
  'ipaddr',
  'ipv6addr',
  'eui48',
] as const;

export type PointType = (typeof POINT_TYPES)[number];

/** How the register bits of a type are read. */
export type Encoding = 'signed' | 'unsigned' | 'float' | 'string' | 'ipv4' | 'ipv6' | 'eui48';

export interface TypeInfo {
  /** Registers taken; `undefined` for strings, whose size the definition gives. */
  size: number | undefined;
  encoding: Encoding;
  /**
   * The raw value that means "not implemented" (the standard's sentinel), as a bigint over the
   * type's bits; `undefined` when the type has none.
   */
  sentinel: bigint | undefined;
  /** Values that can be scaled and ranged (integers and floats). */
  numeric: boolean;
}

const info = (
  size: number | undefined,
  encoding: Encoding,
  sentinel: bigint | undefined,
  numeric = true,
): TypeInfo => ({ size, encoding, sentinel, numeric });

export const TYPE_INFO: Record<PointType, TypeInfo> = {
  int16: info(1, 'signed', 0x8000n),
  int32: info(2, 'signed', 0x8000_0000n),
  int64: info(4, 'signed', 0x8000_0000_0000_0000n),
  uint16: info(1, 'unsigned', 0xffffn),
  uint32: info(2, 'unsigned', 0xffff_ffffn),
  uint64: info(4, 'unsigned', 0xffff_ffff_ffff_ffffn),
  raw16: info(1, 'unsigned', undefined),
  acc16: info(1, 'unsigned', 0n),
  acc32: info(2, 'unsigned', 0n),
  acc64: info(4, 'unsigned', 0n),
  enum16: info(1, 'unsigned', 0xffffn),
  enum32: info(2, 'unsigned', 0xffff_ffffn),
  bitfield16: info(1, 'unsigned', 0xffffn),
  bitfield32: info(2, 'unsigned', 0xffff_ffffn),
  bitfield64: info(4, 'unsigned', 0xffff_ffff_ffff_ffffn),
  string: info(undefined, 'string', undefined, false),
  sunssf: info(1, 'signed', 0x8000n),
  count: info(1, 'unsigned', undefined),
  float32: info(2, 'float', undefined),
  float64: info(4, 'float', undefined),
  pad: info(1, 'unsigned', undefined, false),
  ipaddr: info(2, 'ipv4', 0n, false),
  ipv6addr: info(8, 'ipv6', 0n, false),
  eui48: info(4, 'eui48', 0xffff_ffff_ffff_ffffn, false),
};

export const isPointType = (type: string): type is PointType => Object.hasOwn(TYPE_INFO, type);

export const isEnum = (type: PointType) => type === 'enum16' || type === 'enum32';
export const isBitfield = (type: PointType) =>
  type === 'bitfield16' || type === 'bitfield32' || type === 'bitfield64';

/** Bits the raw value of a numeric, enum or bitfield type spans. */
export const bitsOf = (type: PointType): number => (TYPE_INFO[type].size ?? 0) * 16;

/**
 * The raw values a type can carry as a real value: its full range minus the not-implemented
 * sentinel, which sits at one end of every range that has one.
 */
export function rawRange(type: PointType): { min: bigint; max: bigint } {
  const { encoding, sentinel } = TYPE_INFO[type];
  const bits = BigInt(bitsOf(type));
  if (encoding === 'signed') {
    const min = -(1n << (bits - 1n));
    return { min: sentinel === undefined ? min : min + 1n, max: (1n << (bits - 1n)) - 1n };
  }
  const max = (1n << bits) - 1n;
  if (sentinel === 0n) return { min: 1n, max };
  return { min: 0n, max: sentinel === undefined ? max : max - 1n };
}
