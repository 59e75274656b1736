import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { newAccessCode, safeEqual } from './secrets.ts';

export type CodePurpose = 'reset' | 'access';

/** How long a code stays valid: a reset code 30 minutes, an installer's access code 3 days. */
export const CODE_TTL_SECONDS: Record<CodePurpose, number> = { reset: 30 * 60, access: 3 * 86_400 };

/**
 * What the database keeps of a code: HMAC-SHA-256 of user id and code under a key kept outside
 * the database (`code-key.ts`). A plain hash of 8 digits is undone by trying all 10^8 of them.
 */
const codeHash = (key: Buffer, userId: number, code: string) =>
  createHmac('sha256', key).update(`${userId}:${code}`).digest('hex');

/**
 * Create a single-use code for a user; answers the code (only its HMAC is stored). It expires
 * by the server's clock `now`, which `spendCode` reads too.
 */
export async function createCode(
  db: Kysely<Database>,
  key: Buffer,
  userId: number,
  purpose: CodePurpose,
  now: Clock,
): Promise<string> {
  const code = newAccessCode();
  await db
    .insertInto('one_time_codes')
    .values({
      user_id: userId,
      purpose,
      code_hash: codeHash(key, userId, code),
      expires_at: new Date(now() + CODE_TTL_SECONDS[purpose] * 1000),
    })
    .execute();
  return code;
}

/**
 * Spend a code: true when it matches a live code of the user (compared in constant time). A spent
 * code cannot be used again, and spending one voids the user's other codes.
 */
export async function spendCode(
  db: Kysely<Database>,
  key: Buffer,
  userId: number,
  code: string,
  now: Clock,
): Promise<boolean> {
  const given = codeHash(key, userId, code);
  const at = new Date(now());
  const live = await db
    .selectFrom('one_time_codes')
    .select(['id', 'code_hash'])
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .execute();
  let match: number | undefined;
  for (const row of live) if (safeEqual(row.code_hash, given)) match = row.id;
  if (match === undefined) return false;
  const spent = await db
    .updateTable('one_time_codes')
    .set({ used_at: at })
    .where('id', '=', match)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) return false;
  await db
    .updateTable('one_time_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  return true;
}
