import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in DATA_DIR that holds the generated key, beside the signing keys. */
export const CODE_KEY_FILE = 'code-hmac-key';

/** Fewest bytes a one-time-code key may have. */
const MIN_KEY_BYTES = 32;

/**
 * The key one-time codes are stored under (as HMAC-SHA-256), kept outside the database: a database
 * dump alone cannot test the 10^8 possible codes against the stored values. Given as
 * `CODE_HMAC_KEY` (base64url, at least 32 bytes; every process of a deployment needs the same), or
 * read from `dir/code-hmac-key`, generated there (mode 0600) on first start like the signing keys.
 * @throws when the given or stored key is shorter than 32 bytes.
 */
export function loadCodeKey(dir: string, given?: string): Buffer {
  const fromText = (text: string, where: string) => {
    const key = Buffer.from(text.trim(), 'base64url');
    if (key.length < MIN_KEY_BYTES)
      throw new Error(`${where} must hold at least ${MIN_KEY_BYTES} bytes, base64url`);
    return key;
  };
  if (given) return fromText(given, 'CODE_HMAC_KEY');
  const path = join(dir, CODE_KEY_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    // `wx`: a second process starting at the same time keeps the first one's key.
    writeFileSync(path, randomBytes(MIN_KEY_BYTES).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return fromText(readFileSync(path, 'utf8'), path);
}
