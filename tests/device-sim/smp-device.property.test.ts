// Bytes from a Bluetooth central are untrusted: whatever arrives, the simulated device answers or
// stays silent, never throws, and still takes a good image afterwards.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { encode } from 'cborg';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseVersion, signImage } from '../../server/firmware/sign-image.ts';
import type { FirmwareCodec } from '../../src/codec/firmware/image-types.ts';
import { loadFirmwareCodec } from '../../src/codec/load-node.ts';
import { FirmwareKeyring } from '../../src/device-sim/firmware-keyring.ts';
import { SmpDevice } from '../../src/device-sim/smp-device.ts';
import { chunkDataSize, SmpClient } from '../../src/smp/smp-client.ts';
import {
  readImageState,
  readImageStateAnswer,
  readUploadAnswer,
  uploadChunk,
} from '../../src/smp/smp-commands.ts';
import { decodeMessage, SMP_HEADER_SIZE } from '../../src/smp/smp-frame.ts';

const key = generateKeyPairSync('ed25519').privateKey;
let firmware: FirmwareCodec;
let keyring: FirmwareKeyring;
let good: Uint8Array;
beforeAll(async () => {
  firmware = await loadFirmwareCodec();
  keyring = await FirmwareKeyring.of(firmware, [
    new Uint8Array(createPublicKey(key).export({ type: 'spki', format: 'der' })),
  ]);
  good = new Uint8Array(
    signImage({
      key,
      modelId: 'hybrid5k',
      version: parseVersion('2.0.0'),
      payload: new Uint8Array(5000).fill(7),
    }),
  );
});

/** A header with a real group and command (or any), and a body of any CBOR the fields SMP reads. */
const smpLike = fc
  .record({
    op: fc.integer({ min: 0, max: 7 }),
    version: fc.integer({ min: 0, max: 3 }),
    group: fc.oneof(fc.constantFrom(0, 1), fc.integer({ min: 0, max: 0xffff })),
    command: fc.oneof(fc.constantFrom(0, 1, 5, 6), fc.integer({ min: 0, max: 255 })),
    body: fc.dictionary(
      fc.constantFrom('off', 'len', 'data', 'sha', 'image', 'hash', 'confirm', 'd', '__proto__', 'x'),
      fc.oneof(
        fc.integer({ min: -5, max: 2 ** 32 }),
        fc.uint8Array({ maxLength: 64 }),
        fc.boolean(),
        fc.string(),
        fc.constant(null),
        fc.array(fc.integer(), { maxLength: 3 }),
      ),
    ),
    lengthSkew: fc.oneof(fc.constant(0), fc.integer({ min: -3, max: 3 })),
  })
  .map(({ op, version, group, command, body, lengthSkew }) => {
    const cbor = encode(body);
    const out = new Uint8Array(SMP_HEADER_SIZE + cbor.length);
    const view = new DataView(out.buffer);
    view.setUint8(0, (version << 3) | op);
    view.setUint16(2, Math.max(0, Math.min(0xffff, cbor.length + lengthSkew)));
    view.setUint16(4, group);
    view.setUint8(7, command);
    out.set(cbor, SMP_HEADER_SIZE);
    return out;
  });

const anyFrame = fc.oneof(fc.uint8Array({ maxLength: 3000 }), smpLike);

async function uploadAll(client: SmpClient, bytes: Uint8Array): Promise<void> {
  const sha = firmware.sha256(bytes);
  let off = readUploadAnswer(
    await client.request(
      uploadChunk({
        off: 0,
        len: bytes.length,
        sha,
        data: bytes.subarray(0, chunkDataSize(2475, { off: 0, len: bytes.length, sha })),
      }),
    ),
  ).off;
  while (off < bytes.length)
    off = readUploadAnswer(
      await client.request(
        uploadChunk({ off, data: bytes.subarray(off, off + chunkDataSize(2475, { off })) }),
      ),
    ).off;
}

describe('untrusted bytes at the simulated device', () => {
  it('never throw, every answer is an SMP message, and a good image is still taken', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyFrame, { maxLength: 12 }), async (frames) => {
        const device = new SmpDevice({ firmware, keyring, modelId: 'hybrid5k', version: '1.0.0' });
        for (const frame of frames) {
          const reply = await device.handle(frame);
          if (reply) expect(() => decodeMessage(reply.answer)).not.toThrow();
          if (reply?.reset) device.restart();
        }
        const client = new SmpClient(async (message) => {
          const reply = await device.handle(message);
          if (!reply) throw new Error('no answer');
          return reply.answer;
        });
        // Whatever came before (an image left pending by chance, at most), a fresh start and a
        // confirm leave the device able to take an image.
        device.restart();
        device.restart();
        readImageStateAnswer(await client.request({ op: 2, group: 1, command: 0, body: { confirm: true } }));
        await uploadAll(client, good);
        expect(readImageStateAnswer(await client.request(readImageState()))[1]?.version).toBe('2.0.0');
      }),
      { numRuns: 300 },
    );
  });
});
