import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newAccessCode, safeEqual, sha256 } from './secrets.ts';

export type CodePurpose = 'reset' | 'access';

/** How long a code stays valid: a reset code 30 minutes, an installer's access code 3 days. */
export const CODE_TTL_SECONDS: Record<CodePurpose, number> = { reset: 30 * 60, access: 3 * 86_400 };

const codeHash = (userId: number, code: string) => sha256(`${userId}:${code}`);

/** Create a single-use code for a user; answers the code (only its hash is stored). */
export async function createCode(
  db: Kysely<Database>,
  userId: number,
  purpose: CodePurpose,
): Promise<string> {
  const code = newAccessCode();
  await db
    .insertInto('one_time_codes')
    .values({
      user_id: userId,
      purpose,
      code_hash: codeHash(userId, code),
      expires_at: new Date(Date.now() + CODE_TTL_SECONDS[purpose] * 1000),
    })
    .execute();
  return code;
}

/**
 * Spend a code: true when it matches a live code of the user (compared in constant time). A spent
 * code cannot be used again, and spending one voids the user's other codes.
 */
export async function spendCode(db: Kysely<Database>, userId: number, code: string): Promise<boolean> {
  const given = codeHash(userId, code);
  const live = await db
    .selectFrom('one_time_codes')
    .select(['id', 'code_hash'])
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .execute();
  let match: number | undefined;
  for (const row of live) if (safeEqual(row.code_hash, given)) match = row.id;
  if (match === undefined) return false;
  const spent = await db
    .updateTable('one_time_codes')
    .set({ used_at: new Date() })
    .where('id', '=', match)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) return false;
  await db
    .updateTable('one_time_codes')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  return true;
}
