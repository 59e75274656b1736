import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../contracts/webhooks.ts';

/** The key webhook secrets are sealed under: derived from the key kept outside the database. */
function sealingKey(codeKey: Buffer): Buffer {
  return createHmac('sha256', codeKey).update('webhook-secret:').digest();
}

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * Seal a secret (AES-256-GCM) for the database: the server needs it again to sign, but a dump of
 * the database alone does not give it away. `iv.tag.ciphertext`, base64url.
 */
export function sealSecret(codeKey: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(codeKey), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

/** The secret a sealed text holds. @throws when it was sealed under another key or changed. */
export function openSecret(codeKey: Buffer, sealed: string): string {
  const [iv, tag, text] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !text) throw new Error('a sealed webhook secret has three parts');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(codeKey), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(text), decipher.final()]).toString('utf8');
}
