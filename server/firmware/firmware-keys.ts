import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyHashOf } from './sign-image.ts';

/** The development signing key's file in DATA_DIR (PKCS #8 PEM, mode 0600). */
export const DEVELOPMENT_KEY_FILE = 'firmware-signing-key.pem';

/** The keys firmware images may be signed with, by key hash (hex), the image's key-hash TLV. */
export interface FirmwareTrust {
  keys: ReadonlyMap<string, KeyObject>;
  /** The development key, when the trust is the embedded default's: the demo signs with it. */
  development?: { privateKey: KeyObject; path: string };
}

/** Trust in one development key alone (a test's server, the embedded default). */
export function trustOnly(privateKey: KeyObject, path = ''): FirmwareTrust {
  const hash = keyHashOf(privateKey).toString('hex');
  return { keys: new Map([[hash, createPublicKey(privateKey)]]), development: { privateKey, path } };
}

/** A public key from FIRMWARE_PUBLIC_KEYS: base64 DER SubjectPublicKeyInfo, PEM armour allowed. */
export function publicKeyFromText(text: string): KeyObject {
  const base64 = text.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  return createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
}

/** The development key of `dir`, made (mode 0600) on first start; a second process keeps the first's. */
export function loadDevelopmentKey(dir: string): { privateKey: KeyObject; path: string } {
  const path = join(dir, DEVELOPMENT_KEY_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  try {
    writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { privateKey: createPrivateKey(readFileSync(path, 'utf8')), path };
}

/**
 * The firmware trust of a start: the keys of `FIRMWARE_PUBLIC_KEYS`, or, when it names none, the
 * development key of DATA_DIR (made at first start). A production start names its keys (the
 * environment check refuses it otherwise) and must not trust the development key.
 * @throws when a production start's keys include the development key in DATA_DIR.
 */
export function loadFirmwareTrust(options: {
  dataDir: string;
  publicKeys: readonly string[];
  production: boolean;
}): FirmwareTrust {
  if (options.publicKeys.length === 0) {
    const development = loadDevelopmentKey(options.dataDir);
    return trustOnly(development.privateKey, development.path);
  }
  const keys = new Map(
    options.publicKeys.map((text) => {
      const key = publicKeyFromText(text);
      return [keyHashOf(key).toString('hex'), key] as const;
    }),
  );
  if (options.production) {
    let development: KeyObject | undefined;
    try {
      development = createPrivateKey(readFileSync(join(options.dataDir, DEVELOPMENT_KEY_FILE), 'utf8'));
    } catch {
      development = undefined;
    }
    if (development && keys.has(keyHashOf(development).toString('hex')))
      throw new Error(
        `FIRMWARE_PUBLIC_KEYS names the development key of ${join(options.dataDir, DEVELOPMENT_KEY_FILE)}: refused when NODE_ENV=production`,
      );
  }
  return { keys };
}
