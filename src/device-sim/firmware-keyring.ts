import type { FirmwareCodec, FirmwareImage } from '../codec/firmware/image-types.ts';

/** What a device makes of an image's signature. */
export type SignatureCheck = 'ok' | 'untrusted' | 'bad-signature';

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The public keys a device accepts, as MCUboot holds them: an image names its key by the SHA-256
 * of the key's DER SubjectPublicKeyInfo, and its Ed25519 signature of the image hash must verify.
 * Web Crypto, so the same code runs in the browser's simulated device and in Node.
 */
export class FirmwareKeyring {
  private constructor(private readonly keys: Map<string, CryptoKey>) {}

  /**
   * @param spkiKeys the trusted public keys, DER SubjectPublicKeyInfo.
   * @throws DOMException when a key is not an Ed25519 public key.
   */
  static async of(firmware: FirmwareCodec, spkiKeys: readonly Uint8Array[]): Promise<FirmwareKeyring> {
    const keys = new Map<string, CryptoKey>();
    for (const der of spkiKeys) {
      const key = await crypto.subtle.importKey('spki', der.slice(), { name: 'Ed25519' }, false, ['verify']);
      keys.set(hex(firmware.sha256(der)), key);
    }
    return new FirmwareKeyring(keys);
  }

  async check(image: FirmwareImage): Promise<SignatureCheck> {
    const key = this.keys.get(hex(image.keyHash));
    if (!key) return 'untrusted';
    const valid = await crypto.subtle.verify(
      { name: 'Ed25519' },
      key,
      image.signature.slice(),
      image.sha256.slice(),
    );
    return valid ? 'ok' : 'bad-signature';
  }
}
