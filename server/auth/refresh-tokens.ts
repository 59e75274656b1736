import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { openSuccessor, sealSuccessor } from './sealed-successor.ts';
import { newOpaqueToken, sha256 } from './secrets.ts';

export type TokenService = 'config' | 'monitoring';

/**
 * Start a new refresh-token family for a sign-in; answers the opaque token (only its hash is
 * kept). It expires `ttlSeconds` after `now()`, the server's clock, which every check of it reads.
 */
export async function issueRefreshToken(
  db: Kysely<Database>,
  userId: number,
  service: TokenService,
  ttlSeconds: number,
  now: Clock,
  familyId: string = randomUUID(),
  token: string = newOpaqueToken(),
): Promise<string> {
  await db
    .insertInto('refresh_tokens')
    .values({
      token_hash: sha256(token),
      family_id: familyId,
      user_id: userId,
      service,
      expires_at: new Date(now() + ttlSeconds * 1000),
    })
    .execute();
  return token;
}

/** How a refresh is answered: its lifetime, and the grace window for a just-rotated token. */
export interface RotationPolicy {
  ttlSeconds: number;
  graceSeconds: number;
  /** The server's clock: when a token is spent, and whether it or its grace window has ended. */
  now: Clock;
  /** Told of the user whose sign-in was revoked for a replayed token, once that is committed. */
  onRevoked?: (userId: number) => void;
}

type Outcome =
  | { kind: 'rotated'; userId: number; familyId: string; refreshToken: string }
  | { kind: 'invalid' }
  | { kind: 'reused'; userId: number };

/**
 * The successor handed out for a token spent within the grace window, if it is still the live
 * head of its family; null otherwise (an older token, or a successor already spent or revoked).
 */
async function graceSuccessor(
  trx: Transaction<Database>,
  token: string,
  spent: { used_at: Date; successor_sealed: string | null },
  { graceSeconds, now }: Pick<RotationPolicy, 'graceSeconds' | 'now'>,
): Promise<string | null> {
  const at = now();
  if (!spent.successor_sealed || at - spent.used_at.getTime() > graceSeconds * 1000) return null;
  const successor = openSuccessor(token, spent.successor_sealed);
  if (!successor) return null;
  const live = await trx
    .selectFrom('refresh_tokens')
    .select('id')
    .where('token_hash', '=', sha256(successor))
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date(at))
    .executeTakeFirst();
  return live ? successor : null;
}

/**
 * Spend a refresh token and hand out its successor in the same family. The spend is one
 * conditional UPDATE, so of several parallel refreshes with one token exactly one rotates.
 * Presenting the just-rotated token again within `graceSeconds` (a second tab, a retried
 * request) answers the same successor while that successor is unspent. Presenting a spent token
 * after the window, or an older one, revokes the whole family (it was stolen or replayed).
 * @throws {ApiError} 401 `invalid_refresh_token` or `refresh_token_reused`.
 */
export async function rotateRefreshToken(
  db: Kysely<Database>,
  token: string,
  service: TokenService,
  policy: RotationPolicy,
): Promise<{ userId: number; familyId: string; refreshToken: string }> {
  const hash = sha256(token);
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
    const successor = newOpaqueToken();
    const now = new Date(policy.now());
    const spent = await trx
      .updateTable('refresh_tokens')
      .set({ used_at: now, successor_sealed: sealSuccessor(token, successor) })
      .where('token_hash', '=', hash)
      .where('service', '=', service)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['user_id', 'family_id'])
      .executeTakeFirst();
    if (spent) {
      await issueRefreshToken(
        trx,
        spent.user_id,
        service,
        policy.ttlSeconds,
        policy.now,
        spent.family_id,
        successor,
      );
      return { kind: 'rotated', userId: spent.user_id, familyId: spent.family_id, refreshToken: successor };
    }
    const known = await trx
      .selectFrom('refresh_tokens')
      .select(['family_id', 'user_id', 'used_at', 'revoked_at', 'successor_sealed'])
      .where('token_hash', '=', hash)
      .where('service', '=', service)
      .executeTakeFirst();
    if (!known?.used_at) return { kind: 'invalid' };
    if (!known.revoked_at) {
      const again = await graceSuccessor(trx, token, { ...known, used_at: known.used_at }, policy);
      if (again)
        return { kind: 'rotated', userId: known.user_id, familyId: known.family_id, refreshToken: again };
    }
    // Committed before answering: the revocation must survive the 401.
    await revokeFamily(trx, known.family_id, policy.now());
    return { kind: 'reused', userId: known.user_id };
  });
  if (outcome.kind === 'rotated')
    return { userId: outcome.userId, familyId: outcome.familyId, refreshToken: outcome.refreshToken };
  if (outcome.kind === 'reused') {
    policy.onRevoked?.(outcome.userId);
    throw new ApiError(401, 'refresh_token_reused', 'The refresh token was already used; sign in again');
  }
  throw new ApiError(401, 'invalid_refresh_token', 'The refresh token is invalid or expired');
}

/** Revoke every token of one family (one sign-in on one service) at `now` (the server's clock). */
export async function revokeFamily(db: Kysely<Database>, familyId: string, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date(now) })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The sign-in a refresh token of this service belongs to, whatever state it is in; undefined when unknown. */
export async function familyOf(
  db: Kysely<Database>,
  token: string,
  service: TokenService,
): Promise<{ familyId: string; userId: number } | undefined> {
  const known = await db
    .selectFrom('refresh_tokens')
    .select(['family_id', 'user_id'])
    .where('token_hash', '=', sha256(token))
    .where('service', '=', service)
    .executeTakeFirst();
  return known ? { familyId: known.family_id, userId: known.user_id } : undefined;
}

/** Revoke every live refresh token of a user, on both services, at `now` (the server's clock). */
export async function revokeUserTokens(db: Kysely<Database>, userId: number, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date(now) })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}
