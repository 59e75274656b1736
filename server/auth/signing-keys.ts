import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

/** A signing key pair: the private key signs, the public JWK goes into the JWKS. */
export interface SigningKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  kid: string;
}

const ALG = 'EdDSA';

async function fromPrivateJwk(jwk: JWK): Promise<SigningKey> {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.d || !jwk.x) {
    throw new Error('signing key must be an Ed25519 private JWK (kty OKP, crv Ed25519, d, x)');
  }
  const privateKey = (await importJWK(jwk, ALG)) as CryptoKey;
  const kid = jwk.kid ?? jwk.x.slice(0, 16);
  return { privateKey, publicJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid, alg: ALG, use: 'sig' }, kid };
}

/** A fresh Ed25519 key pair (tests, and first start). */
export async function generateSigningKey(): Promise<{ key: SigningKey; privateJwk: JWK }> {
  const pair = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
  const privateJwk = await exportJWK(pair.privateKey);
  privateJwk.kid = privateJwk.x?.slice(0, 16);
  return { key: await fromPrivateJwk(privateJwk), privateJwk };
}

/**
 * The key given as JWK JSON, or the one stored in `dir/file`, generated there (mode 0600) on first start.
 * @throws when the given or stored key is not an Ed25519 private JWK.
 */
export async function loadSigningKey(dir: string, file: string, given?: string): Promise<SigningKey> {
  if (given) {
    let jwk: JWK;
    try {
      jwk = JSON.parse(given) as JWK;
    } catch {
      throw new Error('SIGNING_KEY must be a JSON Web Key (JSON text)');
    }
    return fromPrivateJwk(jwk);
  }
  const path = join(dir, file);
  if (existsSync(path)) return fromPrivateJwk(JSON.parse(readFileSync(path, 'utf8')) as JWK);
  const { key, privateJwk } = await generateSigningKey();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(privateJwk), { mode: 0o600 });
  return key;
}
