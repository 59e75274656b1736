import { verify } from 'node:crypto';
import type { FirmwareImage } from '../../src/codec/firmware/image-types.ts';
import type { FirmwareTrust } from './firmware-keys.ts';
import { firmwareInvalid } from './firmware-store.ts';

/**
 * What the Wasm parser leaves to the server: the image is for the model asked for, its key is one
 * this deployment trusts, and its Ed25519 signature of the image's SHA-256 verifies with that key
 * (node:crypto: the signature is checked once per upload, at the server's boundary).
 * @throws {ApiError} 400 `firmware_invalid` naming the reason.
 */
export function checkSignedImage(image: FirmwareImage, modelId: string, trust: FirmwareTrust): void {
  if (image.modelId !== modelId)
    throw firmwareInvalid(`the image is for model ${image.modelId}, not ${modelId}`);
  const keyHash = Buffer.from(image.keyHash).toString('hex');
  const key = trust.keys.get(keyHash);
  if (!key)
    throw firmwareInvalid(
      `the image is signed with a key this server does not trust (key hash ${keyHash.slice(0, 16)}…)`,
    );
  if (!verify(null, image.sha256, key, image.signature))
    throw firmwareInvalid("the image's Ed25519 signature does not verify with its key");
}
