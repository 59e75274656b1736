// The firmware half of the Wasm codec: SHA-256 against published vectors and node:crypto, and the
// MCUboot image parser on images made apart from it (tests/codec/firmware-images.ts).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyHashOf, parseVersion, signImage } from '../../server/firmware/sign-image.ts';
import { type FirmwareCodec, FirmwareImageError, TLV } from '../../src/codec/firmware/image-types.ts';
import { loadFirmwareCodec } from '../../src/codec/load-node.ts';
import { buildImage, type Entry, testKey } from './firmware-images.ts';

let firmware: FirmwareCodec;
beforeAll(async () => {
  firmware = await loadFirmwareCodec();
});

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const ascii = (text: string) => new TextEncoder().encode(text);

/** The parser's refusal of `bytes`: its code and message. */
function refusal(bytes: Uint8Array): { code: string; message: string } {
  try {
    firmware.parseImage(bytes);
  } catch (error) {
    if (error instanceof FirmwareImageError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the image was accepted');
}

describe('SHA-256 in the Wasm module', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
  ])('gives the published digest of "%s"', (text, digest) => {
    expect(hex(firmware.sha256(ascii(text)))).toBe(digest);
  });

  it('gives the published digest of a million "a" (longer than the I/O region)', () => {
    expect(hex(firmware.sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('agrees with node:crypto on random bytes of every length around the block edges', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(hex(firmware.sha256(bytes))).toBe(createHash('sha256').update(bytes).digest('hex'));
      }),
    );
  });
});

describe('an MCUboot image', () => {
  it('is read whole: model, version, sizes, hash, key hash and signature', () => {
    const payload = Buffer.alloc(70_000, 0x5a); // more than the 64 KiB I/O region
    const bytes = signImage({ key: testKey, modelId: 'HX-5000', version: parseVersion('1.2.3+45'), payload });
    const image = firmware.parseImage(bytes);
    expect(image).toMatchObject({
      modelId: 'HX-5000',
      version: { major: 1, minor: 2, revision: 3, build: 45 },
      versionText: '1.2.3+45',
      size: bytes.length,
      headerSize: 32,
      payloadSize: 70_000,
      protectedTlvSize: 4 + 4 + 'HX-5000'.length,
    });
    const hashed = bytes.subarray(0, 32 + 70_000 + image.protectedTlvSize);
    expect(hex(image.sha256)).toBe(createHash('sha256').update(hashed).digest('hex'));
    expect(hex(image.keyHash)).toBe(hex(keyHashOf(testKey)));
    expect(image.signature).toHaveLength(64);
  });

  it('reads the same in any chunks, and readers may take turns', () => {
    const one = buildImage({ modelId: 'HX-5000', payload: Buffer.alloc(5000, 1) });
    const two = buildImage({ modelId: 'BAT-10', version: [2, 0, 0, 0], payload: Buffer.alloc(9000, 2) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 4096 }), (a, b) => {
        const first = firmware.readImage();
        const second = firmware.readImage();
        for (let i = 0; i * Math.min(a, b) < Math.max(one.length, two.length); i++) {
          if (i * a < one.length) first.push(one.subarray(i * a, (i + 1) * a));
          if (i * b < two.length) second.push(two.subarray(i * b, (i + 1) * b));
        }
        expect(hex(first.finish().sha256)).toBe(hex(firmware.parseImage(one).sha256));
        expect(second.finish()).toMatchObject({ modelId: 'BAT-10', versionText: '2.0.0' });
      }),
      { numRuns: 40 },
    );
  });

  it('shows the build number only when it is not 0', () => {
    expect(firmware.parseImage(buildImage({ version: [1, 0, 0, 0] })).versionText).toBe('1.0.0');
    expect(firmware.parseImage(buildImage({ version: [255, 255, 65535, 4294967295] })).versionText).toBe(
      '255.255.65535+4294967295',
    );
  });
});

describe('a bad image is refused with the reason', () => {
  const withEntries = (pick: (d: Buffer, s: Buffer, k: Buffer) => Entry[]) => buildImage({ entries: pick });

  it.each<[string, () => Uint8Array, string, RegExp]>([
    [
      'a wrong magic',
      () => buildImage({ magic: 0x12345678 }),
      'image-magic',
      /starts with 0x12345678, not 0x96f3b83d/,
    ],
    ['a header size below 32', () => buildImage({ headerSize: 16 }), 'image-header', /below the 32 bytes/],
    [
      'fewer bytes than a header',
      () => buildImage().subarray(0, 20),
      'image-size',
      /20 bytes, fewer than the 32/,
    ],
    [
      'a payload cut short',
      () => buildImage().subarray(0, 300),
      'image-size',
      /300 bytes; its header says the header, payload and protected TLVs alone take/,
    ],
    [
      'bytes after the TLV area',
      () => Buffer.concat([buildImage(), Buffer.alloc(8)]),
      'tlv-length',
      /TLV area is not the size/,
    ],
    [
      'a wrong TLV magic',
      () => buildImage({ infoMagic: 0x6906 }),
      'tlv-magic',
      /does not start with the magic 0x6907/,
    ],
    [
      'a wrong protected TLV magic',
      () => buildImage({ protectedMagic: 0x6907 }),
      'tlv-magic',
      /protected TLV area does not start with the magic 0x6908/,
    ],
    [
      'a payload that does not match the hash',
      () => {
        const bytes = buildImage();
        bytes[100] = (bytes[100] as number) ^ 1;
        return bytes;
      },
      'hash-mismatch',
      /SHA-256 TLV does not match/,
    ],
    [
      'no SHA-256 TLV',
      () =>
        withEntries((_d, s, k) => [
          [TLV.keyHash, k],
          [TLV.ed25519, s],
        ]),
      'tlv-missing',
      /no SHA-256 \(0x10\)/,
    ],
    [
      'no key hash TLV',
      () =>
        withEntries((d, s) => [
          [TLV.sha256, d],
          [TLV.ed25519, s],
        ]),
      'tlv-missing',
      /no key hash \(0x01\)/,
    ],
    [
      'no signature TLV',
      () =>
        withEntries((d, _s, k) => [
          [TLV.sha256, d],
          [TLV.keyHash, k],
        ]),
      'tlv-missing',
      /no Ed25519 signature \(0x24\)/,
    ],
    [
      'no model id',
      () => buildImage({ protectedEntries: null }),
      'tlv-missing',
      /no model id TLV \(0xa0\) in its protected/,
    ],
    [
      'the model id outside the protected area',
      () =>
        buildImage({
          protectedEntries: null,
          entries: (d, s, k) => [
            [TLV.modelId, Buffer.from('HX-5000')],
            [TLV.sha256, d],
            [TLV.keyHash, k],
            [TLV.ed25519, s],
          ],
        }),
      'tlv-place',
      /outside the protected TLV area/,
    ],
    [
      'two signatures',
      () =>
        withEntries((d, s, k) => [
          [TLV.sha256, d],
          [TLV.keyHash, k],
          [TLV.ed25519, s],
          [TLV.ed25519, s],
        ]),
      'tlv-duplicate',
      /more than one Ed25519 signature/,
    ],
    [
      'a short signature',
      () =>
        withEntries((d, s, k) => [
          [TLV.sha256, d],
          [TLV.keyHash, k],
          [TLV.ed25519, s.subarray(0, 63)],
        ]),
      'tlv-value',
      /Ed25519 signature \(0x24\) TLV has the wrong length; expected 64 bytes/,
    ],
    [
      'a model id that is no model id',
      () => buildImage({ protectedEntries: [[TLV.modelId, Buffer.from('a b')]] }),
      'tlv-value',
      /is not a model id/,
    ],
  ])('%s', (_case, make, code, message) => {
    const { code: got, message: text } = refusal(make());
    expect(got).toBe(code);
    expect(text).toMatch(message);
  });

  it('skips TLVs it does not know, as MCUboot does', () => {
    const image = withEntries((d, s, k) => [
      [0x50, Buffer.of(1, 0, 0, 0)],
      [TLV.sha256, d],
      [TLV.keyHash, k],
      [TLV.ed25519, s],
    ]);
    expect(firmware.parseImage(image).modelId).toBe('HX-5000');
  });

  it('refuses a magic as soon as the header is in, before the rest arrives', () => {
    const reader = firmware.readImage();
    reader.push(buildImage({ magic: 0 }).subarray(0, 10));
    expect(() => reader.push(Buffer.alloc(30))).toThrow(FirmwareImageError);
  });
});

describe('untrusted bytes', () => {
  it('never make the parser throw anything but a FirmwareImageError, nor stall it', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        try {
          firmware.parseImage(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(FirmwareImageError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never do either when they are a valid image with bytes changed, cut or added', () => {
    const valid = buildImage({ payload: Buffer.alloc(600, 3) });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.nat(valid.length + 16),
        (changes, cut) => {
          const bytes = Buffer.concat([valid, Buffer.alloc(16, 0xff)]).subarray(0, cut);
          for (const [at, value] of changes) if (at < bytes.length) bytes[at] = value;
          try {
            firmware.parseImage(bytes);
          } catch (error) {
            expect(error).toBeInstanceOf(FirmwareImageError);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
