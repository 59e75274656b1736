/** The raw exports of build/codec.wasm (compiled from assembly/index.ts with raw bindings). */
export interface CodecExports {
  memory: WebAssembly.Memory;
  /** Continues a CRC over the first `length` bytes of the I/O region. */
  crc16(crc: number, length: number): number;
  /** Index of the field or character behind the last non-zero result. */
  errorIndex(): number;
  decodeFields(count: number, limit: number): number;
  encodeFields(count: number, limit: number, commit: number): number;
  buildFrame(opcode: number, size: number, payloadLength: number): number;
  passwordCodes(count: number): number;
  ioPointer(): number;
  ioSize(): number;
  descriptorPointer(): number;
  valuePointer(): number;
  maxFields(): number;
}

/** Result codes of assembly/errors.ts. */
export const WasmResult = {
  ok: 0,
  width: 1,
  position: 2,
  value: 3,
  frameLength: 4,
  passwordLength: 5,
  passwordCharacter: 6,
  opcode: 7,
  bufferSize: 8,
} as const;

const NAMES = [
  'memory',
  'crc16',
  'errorIndex',
  'decodeFields',
  'encodeFields',
  'buildFrame',
  'passwordCodes',
  'ioPointer',
  'ioSize',
  'descriptorPointer',
  'valuePointer',
  'maxFields',
] as const;

/** Checks that an instance carries every export the face needs, so a stale build fails by name. */
function asCodecExports(exports: WebAssembly.Exports): CodecExports {
  const missing = NAMES.filter((name) => !(name in exports));
  if (missing.length > 0) throw new Error(`the module lacks the exports ${missing.join(', ')}`);
  return exports as unknown as CodecExports;
}

/** Instantiates a compiled codec module; it needs no imports. */
export async function instantiateExports(module: WebAssembly.Module): Promise<CodecExports> {
  const instance = await WebAssembly.instantiate(module, {});
  return asCodecExports(instance.exports);
}
