// Writes tests/vectors/firmware.json: SHA-256 vectors (published ones, and node:crypto's digest of
// longer inputs) and small MCUboot images, good and bad, built by tests/codec/firmware-images.ts:
//   node --import tsx tests/vectors/generate-firmware.ts
// Each image's signature is from a key made at generation: the parser does not check signatures.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { TLV } from '../../src/codec/firmware/image-types.ts';
import { buildImage } from '../codec/firmware-images.ts';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const payload = Buffer.from('vector payload: 0123456789abcdef');

const sha256 = [
  { name: 'no bytes (published)', input: '', repeat: 1 },
  { name: 'ASCII "abc" (published)', input: hex(Buffer.from('abc')), repeat: 1 },
  {
    name: 'two blocks (published)',
    input: hex(Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')),
    repeat: 1,
  },
  { name: 'a million "a" (published; past the I/O region)', input: '61', repeat: 1_000_000 },
  { name: '55 zero bytes (padding fits the block)', input: '00', repeat: 55 },
  { name: '56 zero bytes (padding takes a second block)', input: '00', repeat: 56 },
].map((v) => ({ ...v, digest: digest(Buffer.from(v.input.repeat(v.repeat), 'hex')) }));

const image = buildImage({ modelId: 'HX-5000', version: [1, 2, 3, 4], payload });
const flipped = Buffer.from(image);
flipped[40] = (flipped[40] as number) ^ 1;
const valid = [
  { name: 'signed as firmware:sign makes it', image: hex(image), modelId: 'HX-5000', version: '1.2.3+4' },
  {
    name: 'a 0x200-byte header (as Zephyr builds pad it)',
    image: hex(buildImage({ modelId: 'BX-10', version: [2, 0, 0, 0], payload, headerSize: 0x200 })),
    modelId: 'BX-10',
    version: '2.0.0',
  },
].map((v) => ({
  ...v,
  sha256: digest(
    Buffer.from(v.image, 'hex').subarray(0, Buffer.from(v.image, 'hex').length - (4 + 36 + 36 + 68)),
  ),
}));

const rejected = [
  { name: 'a wrong magic', image: buildImage({ payload, magic: 0x96f3b83c }), error: 'image-magic' },
  { name: 'a header size below 32', image: buildImage({ payload, headerSize: 24 }), error: 'image-header' },
  { name: 'cut inside the payload', image: image.subarray(0, 50), error: 'image-size' },
  { name: 'a byte after the TLV area', image: Buffer.concat([image, Buffer.of(0)]), error: 'tlv-length' },
  { name: 'a wrong TLV info magic', image: buildImage({ payload, infoMagic: 0x6908 }), error: 'tlv-magic' },
  {
    name: 'a wrong protected TLV magic',
    image: buildImage({ payload, protectedMagic: 0x6907 }),
    error: 'tlv-magic',
  },
  { name: 'a payload byte changed', image: flipped, error: 'hash-mismatch' },
  { name: 'no model id', image: buildImage({ payload, protectedEntries: null }), error: 'tlv-missing' },
  {
    name: 'no signature',
    image: buildImage({
      payload,
      entries: (d, _s, k) => [
        [TLV.sha256, d],
        [TLV.keyHash, k],
      ],
    }),
    error: 'tlv-missing',
  },
  {
    name: 'two hashes',
    image: buildImage({
      payload,
      entries: (d, s, k) => [
        [TLV.sha256, d],
        [TLV.sha256, d],
        [TLV.keyHash, k],
        [TLV.ed25519, s],
      ],
    }),
    error: 'tlv-duplicate',
  },
  {
    name: 'the model id outside the protected area',
    image: buildImage({
      payload,
      protectedEntries: null,
      entries: (d, s, k) => [
        [TLV.modelId, Buffer.from('HX-5000')],
        [TLV.sha256, d],
        [TLV.keyHash, k],
        [TLV.ed25519, s],
      ],
    }),
    error: 'tlv-place',
  },
  {
    name: 'a 31-byte hash',
    image: buildImage({
      payload,
      entries: (d, s, k) => [
        [TLV.sha256, d.subarray(0, 31)],
        [TLV.keyHash, k],
        [TLV.ed25519, s],
      ],
    }),
    error: 'tlv-value',
  },
].map((v) => ({ name: v.name, image: hex(v.image), error: v.error }));

writeFileSync(
  new URL('./firmware.json', import.meta.url),
  `${JSON.stringify({ sha256, images: { valid, rejected } }, null, 2)}\n`,
);
