import { createHash, createPublicKey, type KeyObject, sign } from 'node:crypto';
import {
  type FirmwareVersion,
  IMAGE_HEADER_SIZE,
  IMAGE_MAGIC,
  MODEL_ID_PATTERN,
  TLV,
  TLV_INFO_MAGIC,
  TLV_PROTECTED_MAGIC,
} from '../../src/codec/firmware/image-types.ts';

/** Thrown for a version, model or payload an image cannot be built with; the message says why. */
export class SignInputError extends Error {
  override name = 'SignInputError';
}

/**
 * `major.minor.revision` with an optional `+build`, within MCUboot's field widths.
 * @example parseVersion('1.2.3+4') // { major: 1, minor: 2, revision: 3, build: 4 }
 * @throws {SignInputError} naming the part that does not fit.
 */
export function parseVersion(text: string): FirmwareVersion {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,5})(?:\+(\d{1,10}))?$/.exec(text);
  if (!match)
    throw new SignInputError(`version "${text}" is not major.minor.revision (for example 1.2.0 or 1.2.0+7)`);
  const [major, minor, revision, build] = [match[1], match[2], match[3], match[4] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  if (major > 255 || minor > 255) throw new SignInputError(`version "${text}": major and minor go up to 255`);
  if (revision > 65_535) throw new SignInputError(`version "${text}": the revision goes up to 65535`);
  if (build > 0xffff_ffff)
    throw new SignInputError(`version "${text}": the build number goes up to 4294967295`);
  return { major, minor, revision, build };
}

/** The key-hash TLV's value: SHA-256 of the public key as DER SubjectPublicKeyInfo (as imgtool writes it). */
export function keyHashOf(key: KeyObject): Buffer {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest();
}

function tlv(type: number, value: Uint8Array): Buffer {
  const entry = Buffer.alloc(4 + value.length);
  entry.writeUInt16LE(type, 0);
  entry.writeUInt16LE(value.length, 2);
  entry.set(value, 4);
  return entry;
}

function area(magic: number, entries: Buffer[]): Buffer {
  const body = Buffer.concat(entries);
  const info = Buffer.alloc(4);
  info.writeUInt16LE(magic, 0);
  info.writeUInt16LE(4 + body.length, 2);
  return Buffer.concat([info, body]);
}

export interface SignOptions {
  /** An Ed25519 private key. */
  key: KeyObject;
  modelId: string;
  version: FirmwareVersion;
  payload: Uint8Array;
}

/**
 * An MCUboot image of `payload`: a 32-byte header, the payload, a protected TLV area with the
 * model id (0xa0), then the TLV area with the SHA-256 of header + payload + protected TLVs (0x10),
 * the key hash (0x01) and the Ed25519 signature of that SHA-256 (0x24), as MCUboot verifies it.
 * @example signImage({ key, modelId: 'hybrid5k', version: parseVersion('1.1.0'), payload })
 * @throws {SignInputError} for a key that is not Ed25519, a bad model id, or a payload too large.
 */
export function signImage({ key, modelId, version, payload }: SignOptions): Buffer {
  if (key.asymmetricKeyType !== 'ed25519' || key.type !== 'private')
    throw new SignInputError('the key is not an Ed25519 private key');
  if (!MODEL_ID_PATTERN.test(modelId))
    throw new SignInputError(
      `model "${modelId}" is not a model id (letters, digits, dot, dash or underscore, up to 64)`,
    );
  const protectedArea = area(TLV_PROTECTED_MAGIC, [tlv(TLV.modelId, Buffer.from(modelId, 'utf8'))]);
  if (payload.length > 0xffff_ffff - IMAGE_HEADER_SIZE - protectedArea.length - 4096)
    throw new SignInputError('the payload is too large for an MCUboot image');
  const header = Buffer.alloc(IMAGE_HEADER_SIZE);
  header.writeUInt32LE(IMAGE_MAGIC, 0);
  header.writeUInt32LE(0, 4); // load address: not a RAM-load image
  header.writeUInt16LE(IMAGE_HEADER_SIZE, 8);
  header.writeUInt16LE(protectedArea.length, 10);
  header.writeUInt32LE(payload.length, 12);
  header.writeUInt32LE(0, 16); // flags
  header.writeUInt8(version.major, 20);
  header.writeUInt8(version.minor, 21);
  header.writeUInt16LE(version.revision, 22);
  header.writeUInt32LE(version.build, 24);
  const digest = createHash('sha256').update(header).update(payload).update(protectedArea).digest();
  const signature = sign(null, digest, key);
  const tlvs = area(TLV_INFO_MAGIC, [
    tlv(TLV.sha256, digest),
    tlv(TLV.keyHash, keyHashOf(key)),
    tlv(TLV.ed25519, signature),
  ]);
  return Buffer.concat([header, payload, protectedArea, tlvs]);
}
