import type { instantiate } from '../../build/codec.js';

/**
 * The exports as `asc` describes them: `npm run build:wasm` compiles assembly/index.ts with raw
 * bindings, which writes `build/codec.d.ts` beside the module. Only its types are used: the face
 * instantiates the module itself (below), so that a stale build fails at load naming what it
 * lacks, and the hot path calls the exports without the generated glue's wrappers.
 */
type GeneratedExports = Awaited<ReturnType<typeof instantiate>>;

/** A raw export takes a `bool` parameter as the number 0 or 1 (the glue converts; the face does not). */
type RawParameter<P> = P extends boolean ? number : P;
type RawExport<E> = E extends (...args: infer A) => infer R
  ? (...args: { [I in keyof A]: RawParameter<A[I]> }) => R
  : E;

/** The raw exports of build/codec.wasm, one for each export of assembly/index.ts. */
export type CodecExports = { [Name in keyof GeneratedExports]: RawExport<GeneratedExports[Name]> };

/**
 * Every export the face needs, checked at load. The type holds this list to the generated one
 * both ways: an export added to or removed from assembly/index.ts fails the type-check here
 * until the face knows of it.
 */
const EXPORT_NAMES: { readonly [Name in keyof CodecExports]: true } = {
  memory: true,
  crc16: true,
  errorIndex: true,
  decodeFields: true,
  encodeFields: true,
  buildFrame: true,
  passwordCodes: true,
  ioPointer: true,
  ioSize: true,
  descriptorPointer: true,
  valuePointer: true,
  maxFields: true,
  sha256Begin: true,
  sha256Update: true,
  sha256End: true,
  sha256StatePointer: true,
  sha256StateSize: true,
  digestPointer: true,
  imageHeader: true,
  imageTlvs: true,
  imagePointer: true,
};

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
  imageMagic: 9,
  imageHeader: 10,
  imageSize: 11,
  tlvMagic: 12,
  tlvLength: 13,
  tlvMissing: 14,
  tlvDuplicate: 15,
  tlvPlace: 16,
  tlvValue: 17,
  hash: 18,
} as const;

/** Names of every export the face needs, in the order a missing one is reported. */
export const CODEC_EXPORT_NAMES = Object.keys(EXPORT_NAMES) as readonly (keyof CodecExports)[];

/** Checks that an instance carries every export the face needs, so a stale build fails by name. */
function asCodecExports(exports: WebAssembly.Exports): CodecExports {
  const missing = CODEC_EXPORT_NAMES.filter((name) => !(name in exports));
  if (missing.length > 0) throw new Error(`the module lacks the exports ${missing.join(', ')}`);
  return exports as unknown as CodecExports;
}

/** Instantiates a compiled codec module; it needs no imports. */
export async function instantiateExports(module: WebAssembly.Module): Promise<CodecExports> {
  const instance = await WebAssembly.instantiate(module, {});
  return asCodecExports(instance.exports);
}
