import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost: N (a power of two), r and p. Stored with each hash so it can change later. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** Production cost: 2^15 × 8 × 128 bytes = 32 MiB of memory per hash. */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      32,
      { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/**
 * Hash a password with scrypt: `scrypt$N$r$p$salt$hash` (base64url).
 * @example await hashPassword('Owner#2026') // 'scrypt$32768$8$1$…'
 */
export async function hashPassword(
  password: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Check a password against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummyHash: Promise<string> | undefined;

/**
 * Spend the same time as a real check when the account does not exist, so response time does
 * not tell which e-mails are registered.
 */
export async function verifyAgainstDummy(password: string, cost: ScryptCost): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-for-timing', cost);
  await verifyPassword(password, await dummyHash);
  return false;
}
