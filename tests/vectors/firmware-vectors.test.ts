// tests/vectors/firmware.json through the Wasm module's TypeScript face; the C harness
// (tests/codec-hosts/c-harness.test.ts) runs the same file through wasm2c.
import { beforeAll, describe, expect, it } from 'vitest';
import { type FirmwareCodec, FirmwareImageError } from '../../src/codec/firmware/image-types.ts';
import { loadFirmwareCodec } from '../../src/codec/load-node.ts';
import { firmwareVectors } from './firmware-vectors.ts';

let firmware: FirmwareCodec;
beforeAll(async () => {
  firmware = await loadFirmwareCodec();
});
const bytes = (hex: string) => Buffer.from(hex, 'hex');

describe('the firmware vectors', () => {
  it.each(firmwareVectors.sha256)('SHA-256 of $name', ({ input, repeat, digest }) => {
    expect(Buffer.from(firmware.sha256(bytes(input.repeat(repeat)))).toString('hex')).toBe(digest);
  });

  it.each(firmwareVectors.images.valid)('reads the image $name', ({ image, modelId, version, sha256 }) => {
    const parsed = firmware.parseImage(bytes(image));
    expect({
      modelId: parsed.modelId,
      version: parsed.versionText,
      sha256: Buffer.from(parsed.sha256).toString('hex'),
    }).toEqual({
      modelId,
      version,
      sha256,
    });
  });

  it.each(firmwareVectors.images.rejected)('refuses the image with $name: $error', ({ image, error }) => {
    expect(() => firmware.parseImage(bytes(image))).toThrow(FirmwareImageError);
    try {
      firmware.parseImage(bytes(image));
    } catch (thrown) {
      expect((thrown as FirmwareImageError).code).toBe(error);
    }
  });
});
