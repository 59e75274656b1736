// MCUboot images built byte by byte with node:crypto, independently of the Wasm parser, so tests
// can make every kind of bad image: a TLV left out, moved, doubled or the wrong length.
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { keyHashOf } from '../../server/firmware/sign-image.ts';
import { TLV } from '../../src/codec/firmware/image-types.ts';

export const testKey: KeyObject = generateKeyPairSync('ed25519').privateKey;

export type Entry = [type: number, value: Uint8Array];

export interface ImageParts {
  modelId?: string;
  version?: [number, number, number, number];
  payload?: Uint8Array;
  headerSize?: number;
  magic?: number;
  key?: KeyObject;
  /** Entries of the protected area (default: the model id); null leaves the area out. */
  protectedEntries?: Entry[] | null;
  protectedMagic?: number;
  infoMagic?: number;
  /** Entries of the TLV area from the digest and signature (default: hash, key hash, signature). */
  entries?: (digest: Buffer, signature: Buffer, keyHash: Buffer) => Entry[];
}

const tlv = ([type, value]: Entry) => {
  const entry = Buffer.alloc(4 + value.length);
  entry.writeUInt16LE(type, 0);
  entry.writeUInt16LE(value.length, 2);
  entry.set(value, 4);
  return entry;
};

const area = (magic: number, entries: Entry[]) => {
  const body = Buffer.concat(entries.map(tlv));
  const info = Buffer.alloc(4);
  info.writeUInt16LE(magic, 0);
  info.writeUInt16LE(4 + body.length, 2);
  return Buffer.concat([info, body]);
};

/** An image of the given parts; what is not given is as `npm run firmware:sign` makes it. */
export function buildImage(parts: ImageParts = {}): Buffer {
  const modelId = parts.modelId ?? 'HX-5000';
  const [major, minor, revision, build] = parts.version ?? [1, 2, 3, 0];
  const payload = parts.payload ?? Buffer.from('firmware payload '.repeat(40));
  const headerSize = parts.headerSize ?? 32;
  const key = parts.key ?? testKey;
  const protectedEntries =
    parts.protectedEntries === undefined
      ? [[TLV.modelId, Buffer.from(modelId)] as Entry]
      : parts.protectedEntries;
  const protectedArea = protectedEntries
    ? area(parts.protectedMagic ?? 0x6908, protectedEntries)
    : Buffer.alloc(0);
  const header = Buffer.alloc(Math.max(headerSize, 32));
  header.writeUInt32LE(parts.magic ?? 0x96f3b83d, 0);
  header.writeUInt16LE(headerSize, 8);
  header.writeUInt16LE(protectedArea.length, 10);
  header.writeUInt32LE(payload.length, 12);
  header.writeUInt8(major, 20);
  header.writeUInt8(minor, 21);
  header.writeUInt16LE(revision, 22);
  header.writeUInt32LE(build, 24);
  const digest = createHash('sha256').update(header).update(payload).update(protectedArea).digest();
  const signature = sign(null, digest, key);
  const keyHash = keyHashOf(key);
  const entries = parts.entries?.(digest, signature, keyHash) ?? [
    [TLV.sha256, digest],
    [TLV.keyHash, keyHash],
    [TLV.ed25519, signature],
  ];
  return Buffer.concat([header, payload, protectedArea, area(parts.infoMagic ?? 0x6907, entries)]);
}
