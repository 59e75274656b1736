import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// The key comes from the spent token itself, which the database never holds (only its SHA-256
// under another label): reading the table does not give out a live successor.
const keyOf = (spentToken: string) => createHash('sha256').update(`successor-key:${spentToken}`).digest();

/** Seal a successor refresh token so that only the holder of the spent token can open it. */
export function sealSuccessor(spentToken: string, successor: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(spentToken), iv);
  const body = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

/** Open a sealed successor with the spent token; null when it does not open. */
export function openSuccessor(spentToken: string, sealed: string): string | null {
  const [iv, body, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !body || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(spentToken), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
