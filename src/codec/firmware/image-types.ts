/** MCUboot's version of an image: major.minor.revision+build. */
export interface FirmwareVersion {
  major: number;
  minor: number;
  revision: number;
  build: number;
}

/** An MCUboot image whose structure and SHA-256 were checked (its signature is checked apart). */
export interface FirmwareImage {
  /** The model id from the protected TLV (type 0xa0), so the signature covers it. */
  modelId: string;
  version: FirmwareVersion;
  /** `major.minor.revision`, with `+build` when the build number is not 0. */
  versionText: string;
  /** Bytes of the whole image file. */
  size: number;
  headerSize: number;
  /** Bytes of the payload (the firmware itself), after the header. */
  payloadSize: number;
  /** Bytes of the protected TLV area, 0 when there is none. */
  protectedTlvSize: number;
  flags: number;
  loadAddress: number;
  /** SHA-256 of the header, payload and protected TLVs: what the image's hash TLV (0x10) holds. */
  sha256: Uint8Array;
  /** The key-hash TLV (0x01): SHA-256 of the signing key's public key, DER SubjectPublicKeyInfo. */
  keyHash: Uint8Array;
  /** The Ed25519 TLV (0x24): the signature of `sha256`. */
  signature: Uint8Array;
}

export type FirmwareImageErrorCode =
  | 'image-magic'
  | 'image-header'
  | 'image-size'
  | 'tlv-magic'
  | 'tlv-length'
  | 'tlv-missing'
  | 'tlv-duplicate'
  | 'tlv-place'
  | 'tlv-value'
  | 'hash-mismatch';

/** An image the parser refuses; `code` says what kind, `message` names what is wrong. */
export class FirmwareImageError extends Error {
  readonly code: FirmwareImageErrorCode;

  constructor(code: FirmwareImageErrorCode, message: string) {
    super(message);
    this.name = 'FirmwareImageError';
    this.code = code;
  }
}

/** Reads an image as it arrives: `push` each chunk in order, then `finish`. */
export interface FirmwareImageReader {
  /**
   * Takes the next bytes. Throws as soon as they show the image is bad (a wrong magic once the
   * header is in, a TLV area past 64 KiB), so a caller can stop reading.
   * @throws FirmwareImageError
   */
  push(chunk: Uint8Array): void;
  /**
   * Checks what came: the sizes, the TLV area, the hash.
   * @throws FirmwareImageError
   */
  finish(): FirmwareImage;
  /** Bytes pushed so far. */
  readonly received: number;
}

/** The firmware half of the codec: SHA-256 and MCUboot images, both in the Wasm module. */
export interface FirmwareCodec {
  /**
   * SHA-256 of any number of bytes.
   * @example hex(firmware.sha256(ascii('abc'))) // 'ba7816bf…f20015ad'
   */
  sha256(bytes: Uint8Array): Uint8Array;
  /** A reader for one image; readers are independent, so several streams can be read at once. */
  readImage(): FirmwareImageReader;
  /**
   * A whole image at once.
   * @example firmware.parseImage(bytes).versionText // '1.2.0'
   * @throws FirmwareImageError naming the first thing wrong.
   */
  parseImage(bytes: Uint8Array): FirmwareImage;
}

/** MCUboot's TLV types that the fleet reads, and the custom type that carries the model id. */
export const TLV = { keyHash: 0x01, sha256: 0x10, ed25519: 0x24, modelId: 0xa0 } as const;
/** MCUboot's magic numbers. */
export const IMAGE_MAGIC = 0x96f3b83d;
export const TLV_INFO_MAGIC = 0x6907;
export const TLV_PROTECTED_MAGIC = 0x6908;
export const IMAGE_HEADER_SIZE = 32;
/** The largest TLV area the parser reads (the Wasm module's I/O region). */
export const MAX_TLV_AREA = 65536;
/** A model id: what the device catalogue's ids look like. */
export const MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `1.2.3`, or `1.2.3+4` when the build number is not 0. */
export function versionText(v: FirmwareVersion): string {
  const base = `${v.major}.${v.minor}.${v.revision}`;
  return v.build === 0 ? base : `${base}+${v.build}`;
}
