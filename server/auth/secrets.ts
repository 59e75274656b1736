import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A new opaque refresh token: 32 random bytes, base64url. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 of a high-entropy secret (refresh token), hex; what the database stores. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A new 8-digit access code for e-mail; stored only as its hash. */
export function newAccessCode(): string {
  return String(randomInt(0, 100_000_000)).padStart(8, '0');
}

/** Compare two strings in constant time (for equal lengths; a length mismatch is just false). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
