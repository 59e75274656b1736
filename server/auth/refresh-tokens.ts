import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { newOpaqueToken, sha256 } from './secrets.ts';

export type TokenService = 'config' | 'monitoring';

/** Start a new refresh-token family for a sign-in; answers the opaque token (only its hash is kept). */
export async function issueRefreshToken(
  db: Kysely<Database>,
  userId: number,
  service: TokenService,
  ttlSeconds: number,
  familyId: string = randomUUID(),
): Promise<string> {
  const token = newOpaqueToken();
  await db
    .insertInto('refresh_tokens')
    .values({
      token_hash: sha256(token),
      family_id: familyId,
      user_id: userId,
      service,
      expires_at: new Date(Date.now() + ttlSeconds * 1000),
    })
    .execute();
  return token;
}

/**
 * Spend a refresh token and hand out its successor in the same family. The spend is one
 * conditional UPDATE, so of several parallel refreshes with one token exactly one wins.
 * Presenting a token that was already spent revokes the whole family (it was stolen or replayed).
 * @throws {ApiError} 401 `invalid_refresh_token` or `refresh_token_reused`.
 */
export async function rotateRefreshToken(
  db: Kysely<Database>,
  token: string,
  service: TokenService,
  ttlSeconds: number,
): Promise<{ userId: number; refreshToken: string }> {
  const hash = sha256(token);
  const outcome = await db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('refresh_tokens')
      .set({ used_at: new Date() })
      .where('token_hash', '=', hash)
      .where('service', '=', service)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date())
      .returning(['user_id', 'family_id'])
      .executeTakeFirst();
    if (spent) {
      const refreshToken = await issueRefreshToken(trx, spent.user_id, service, ttlSeconds, spent.family_id);
      return { kind: 'rotated' as const, userId: spent.user_id, refreshToken };
    }
    const known = await trx
      .selectFrom('refresh_tokens')
      .select(['family_id', 'used_at'])
      .where('token_hash', '=', hash)
      .where('service', '=', service)
      .executeTakeFirst();
    if (!known?.used_at) return { kind: 'invalid' as const };
    // Committed before answering: the revocation must survive the 401.
    await trx
      .updateTable('refresh_tokens')
      .set({ revoked_at: new Date() })
      .where('family_id', '=', known.family_id)
      .where('revoked_at', 'is', null)
      .execute();
    return { kind: 'reused' as const };
  });
  if (outcome.kind === 'rotated') return { userId: outcome.userId, refreshToken: outcome.refreshToken };
  if (outcome.kind === 'reused') {
    throw new ApiError(401, 'refresh_token_reused', 'The refresh token was already used; sign in again');
  }
  throw new ApiError(401, 'invalid_refresh_token', 'The refresh token is invalid or expired');
}

/** Revoke every live refresh token of a user (after a password change). */
export async function revokeUserTokens(db: Kysely<Database>, userId: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}
