import { createHmac, randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import {
  API_KEY_PREFIX,
  type ApiKey,
  type ApiKeyScope,
  type CreateApiKeyRequest,
  type CreatedApiKey,
} from '../../contracts/api-keys.ts';
import type { UserRole } from '../../contracts/users.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import type { Principal } from './access-tokens.ts';

/** What a key's text looks like: the prefix and 32 random bytes in base64url. */
export const apiKeyTextSchema = z.string().regex(new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`));

/** A new key's text: `fm_pat_` and 32 random bytes (base64url). */
export function newApiKeyText(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * What the database keeps of a key: HMAC-SHA-256 of its text under the key kept outside the
 * database (`CODE_HMAC_KEY`), with a label so it can never equal a one-time code's HMAC.
 */
export function apiKeyHmac(codeKey: Buffer, text: string): string {
  return createHmac('sha256', codeKey).update(`api-key:${text}`).digest('hex');
}

/** A key's token bucket: it holds `limit` calls and fills again at `limit` a minute. */
export interface KeyBucket {
  limit: number;
  windowSeconds: number;
}

/** The bucket of `API_KEY_RATE_LIMIT` calls a minute. */
export const bucketOf = (perMinute: number): KeyBucket => ({ limit: perMinute, windowSeconds: 60 });

/** What using a key found. */
export type KeyUse =
  | { kind: 'unknown' }
  | {
      kind: 'used' | 'limited';
      keyId: string;
      keyName: string;
      scope: ApiKeyScope;
      principal: Principal;
      /** When the key was created (seconds since the epoch): the session it stands for began then. */
      createdAt: number;
      /** When it expires (seconds since the epoch), or null. */
      expiresAt: number | null;
      /** Whole calls left in the bucket after this one. */
      remaining: number;
      /** Seconds until the next call would pass (0 when one would now). */
      retryAfter: number;
      /** Seconds until the bucket is full again. */
      resetAfter: number;
      /** The address this call came from had not used the key before. */
      newAddress: boolean;
    };

interface UseRow {
  id: string;
  name: string;
  scope: ApiKeyScope;
  created_at: Date;
  expires_at: Date | null;
  bucket_tokens: number;
  bucket_allowed: boolean;
  user_id: number;
  main_email: string;
  display_name: string;
  role: UserRole;
  previous_address: string | null;
}

/**
 * Use a key once at `now` (the server's clock, milliseconds since the epoch): find it by its HMAC,
 * check that it is neither revoked nor expired and that its owner's sessions were not ended since
 * it was made (a new password or e-mail), take one call from its bucket, and note when and from
 * where it was used; all in one UPDATE, so every process sees a revocation and shares the bucket
 * at once. Expiry and the bucket's filling are counted against `now`, never the database's clock.
 * The owner is read as they are now: the key acts with their rights of this moment. A key text
 * that is not a key is `unknown` without a query.
 */
export async function spendApiKey(
  db: Kysely<Database>,
  codeKey: Buffer,
  text: string,
  address: string,
  bucket: KeyBucket,
  now: number,
): Promise<KeyUse> {
  if (!apiKeyTextSchema.safeParse(text).success) return { kind: 'unknown' };
  const perSecond = bucket.limit / bucket.windowSeconds;
  // The bucket as it stands now: what it held, filled for the time since, up to its size. Its
  // time only moves on: a process whose clock is behind another's counts no time twice.
  const filled = sql<number>`least(${bucket.limit}::float8,
    k.bucket_tokens + ${perSecond}::float8 * greatest(0, extract(epoch FROM now_.t - k.bucket_at)))`;
  const result = await sql<UseRow>`
    WITH now_ AS (SELECT ${new Date(now)}::timestamptz AS t),
      old AS (SELECT id, last_used_address FROM api_keys WHERE secret_hmac = ${apiKeyHmac(codeKey, text)})
    UPDATE api_keys AS k SET
      bucket_allowed = ${filled} >= 1,
      bucket_tokens = ${filled} - CASE WHEN ${filled} >= 1 THEN 1 ELSE 0 END,
      bucket_at = greatest(k.bucket_at, now_.t),
      last_used_at = CASE WHEN ${filled} >= 1 THEN now_.t ELSE k.last_used_at END,
      last_used_address = CASE WHEN ${filled} >= 1 THEN ${address} ELSE k.last_used_address END
    FROM users AS u, now_, old
    WHERE k.id = old.id AND u.id = k.user_id AND k.revoked_at IS NULL
      AND (k.expires_at IS NULL OR k.expires_at > now_.t)
      AND (u.sessions_valid_after IS NULL OR u.sessions_valid_after <= k.created_at)
    RETURNING k.id, k.name, k.scope, k.created_at, k.expires_at, k.bucket_tokens, k.bucket_allowed,
      u.id AS user_id, u.main_email, u.display_name, u.role, old.last_used_address AS previous_address`.execute(
    db,
  );
  const row = result.rows[0];
  if (!row) return { kind: 'unknown' };
  const tokens = Number(row.bucket_tokens);
  let newAddress = false;
  if (row.bucket_allowed && row.previous_address !== address) {
    const inserted = await db
      .insertInto('api_key_addresses')
      .values({ key_id: row.id, address })
      .onConflict((oc) => oc.doNothing())
      .returning('key_id')
      .executeTakeFirst();
    newAddress = inserted !== undefined;
  }
  return {
    kind: row.bucket_allowed ? 'used' : 'limited',
    keyId: row.id,
    keyName: row.name,
    scope: row.scope,
    principal: { id: row.user_id, email: row.main_email, name: row.display_name, role: row.role },
    createdAt: row.created_at.getTime() / 1000,
    expiresAt: row.expires_at ? row.expires_at.getTime() / 1000 : null,
    remaining: Math.floor(tokens),
    retryAfter: tokens >= 1 ? 0 : Math.ceil((1 - tokens) / perSecond),
    resetAfter: Math.ceil((bucket.limit - tokens) / perSecond),
    newAddress,
  };
}

/**
 * Whether a key still stands at `now` (the server's clock): not revoked, not expired, its owner's
 * sessions not ended since. A live stream asks again.
 */
export async function apiKeyStands(db: Kysely<Database>, keyId: string, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select('k.id')
    .where('k.id', '=', keyId)
    .where('k.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('k.expires_at', 'is', null), eb('k.expires_at', '>', new Date(now))]))
    .where((eb) =>
      eb.or([
        eb('u.sessions_valid_after', 'is', null),
        eb('u.sessions_valid_after', '<=', eb.ref('k.created_at')),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** Record what happened to a key. */
export async function auditApiKey(
  db: Kysely<Database>,
  entry: {
    keyId: string;
    keyName: string;
    userId: number;
    action: 'created' | 'new-address' | 'revoked';
    address: string;
  },
): Promise<void> {
  await db
    .insertInto('api_key_audit')
    .values({
      key_id: entry.keyId,
      key_name: entry.keyName,
      user_id: entry.userId,
      action: entry.action,
      address: entry.address,
    })
    .execute();
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * Make a key for a user at `now` (the server's clock): created then (the session it stands for
 * begins then, against the owner's session cut-off of the same clock), it expires that many days
 * on, and its bucket is full as of then. Answers its text this once (only its HMAC is stored),
 * audited.
 */
export async function createApiKey(
  db: Kysely<Database>,
  codeKey: Buffer,
  owner: number,
  request: CreateApiKeyRequest,
  bucket: KeyBucket,
  address: string,
  now: number,
): Promise<CreatedApiKey> {
  const text = newApiKeyText();
  const expiresAt = request.expiresInDays ? new Date(now + request.expiresInDays * 86_400_000) : null;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('api_keys')
      .values({
        user_id: owner,
        name: request.name,
        scope: request.scope,
        secret_hmac: apiKeyHmac(codeKey, text),
        created_at: new Date(now),
        expires_at: expiresAt,
        revoked_at: null,
        last_used_at: null,
        last_used_address: null,
        bucket_tokens: bucket.limit,
        bucket_at: new Date(now),
      })
      .returning(['id', 'name', 'scope', 'expires_at'])
      .executeTakeFirstOrThrow();
    await auditApiKey(trx, { keyId: row.id, keyName: row.name, userId: owner, action: 'created', address });
    return { id: row.id, name: row.name, scope: row.scope, expiresAt: iso(row.expires_at), key: text };
  });
}

/** A user's keys that are not revoked, newest first (expired ones too, so their owner sees them lapse). */
export async function listApiKeys(db: Kysely<Database>, owner: number): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'scope', 'created_at', 'expires_at', 'last_used_at', 'last_used_address'])
    .where('user_id', '=', owner)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    scope: row.scope,
    createdAt: row.created_at.toISOString(),
    expiresAt: iso(row.expires_at),
    lastUsedAt: iso(row.last_used_at),
    lastUsedAddress: row.last_used_address,
  }));
}

/**
 * Revoke one of a user's keys at `now` (the server's clock), audited; from this moment every
 * process refuses it.
 * @throws {ApiError} 404 when the user holds no such key (another's key is not told apart).
 */
export async function revokeApiKey(
  db: Kysely<Database>,
  owner: number,
  keyId: string,
  address: string,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('api_keys')
      .set({ revoked_at: new Date(now) })
      .where('id', '=', keyId)
      .where('user_id', '=', owner)
      .where('revoked_at', 'is', null)
      .returning(['id', 'name'])
      .executeTakeFirst();
    if (!row) throw notFound('API key');
    await auditApiKey(trx, { keyId: row.id, keyName: row.name, userId: owner, action: 'revoked', address });
  });
}
