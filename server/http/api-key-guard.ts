import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { actorOf, mayChangeState } from '../../contracts/access-policy.ts';
import { auditApiKey, bucketOf, type KeyBucket, spendApiKey } from '../auth/api-keys.ts';
import type { Clock } from '../clock.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import type { AuthVariables } from './auth-variables.ts';
import { clientAddress } from './client-address.ts';
import { forbidden, tooManyAttempts, unauthorized } from './errors.ts';
import { parseInput } from './validate.ts';

/** What checking an API key needs: the database, the HMAC key, the bucket, the proxies trusted and the clock. */
export interface ApiKeyGate {
  db: Kysely<Database>;
  codeKey: Buffer;
  bucket: KeyBucket;
  trustProxy: number;
  companyDomain: string;
  /** The server's clock (`ctx.now`): keys expire and buckets fill by it. */
  now: Clock;
}

/** An `Authorization` header that carries an API key (`Bearer fm_pat_…`), as zod reads it. */
const keyHeaderSchema = z
  .string()
  .max(200, 'authorization: an API key header is at most 200 characters')
  .regex(/^Bearer\s+fm_pat_\S*$/i, 'authorization: expected "Bearer fm_pat_…"')
  .transform((header) => header.replace(/^Bearer\s+/i, ''));

/** The key text of an `Authorization: Bearer fm_pat_…` header, or undefined for any other header. */
export function apiKeyOf(header: string | undefined): string | undefined {
  if (!header || !/^Bearer\s+fm_pat_/i.test(header)) return undefined;
  return parseInput(header, keyHeaderSchema, 'authorization');
}

/** Methods that only read: everything else changes state, which a read key may not. */
const READS = new Set(['GET', 'HEAD']);

/**
 * Let the call act as an API key's owner, with their rights as they are now: 401 for a key that
 * is unknown, revoked or expired (or whose owner's sessions ended since), 429 when its bucket is
 * empty (with `Retry-After` and the draft `RateLimit-Policy` / `RateLimit` headers, which every
 * answer to a key carries), 403 for a read key's call that would change state. A first call from
 * a new address is audited.
 * @throws {ApiError} 401 `pat_invalid`, 429 `rate_limited`, 403 `api_key_read_only`.
 */
export async function actAsApiKey(
  c: Context<{ Variables: AuthVariables }>,
  gate: ApiKeyGate,
  text: string,
): Promise<void> {
  const address = clientAddress(c, gate.trustProxy);
  const now = gate.now();
  const use = await spendApiKey(gate.db, gate.codeKey, text, address, gate.bucket, now);
  if (use.kind === 'unknown') throw unauthorized('The API key is unknown, revoked or expired', 'pat_invalid');
  c.header('RateLimit-Policy', `"key";q=${gate.bucket.limit};w=${gate.bucket.windowSeconds}`);
  c.header(
    'RateLimit',
    `"key";r=${use.remaining};t=${use.kind === 'limited' ? use.retryAfter : use.resetAfter}`,
  );
  if (use.kind === 'limited')
    throw tooManyAttempts(
      `Too many calls with this API key; it allows ${gate.bucket.limit} a minute. Try again in ${use.retryAfter} s.`,
      use.retryAfter,
    );
  if (use.newAddress)
    await auditApiKey(gate.db, {
      keyId: use.keyId,
      keyName: use.keyName,
      userId: use.principal.id,
      action: 'new-address',
      address,
    });
  const caller = {
    ...use.principal,
    staff: actorOf(use.principal, gate.companyDomain).staff,
    key: use.scope,
  };
  if (!READS.has(c.req.method) && !mayChangeState(caller))
    throw forbidden('This API key is read-only: it may not change anything', 'api_key_read_only');
  c.set('principal', caller);
  c.set('tokenIssuedAt', use.createdAt);
  // A key without an expiry still ends a live stream some day: a year on, as a sign-in would.
  c.set('tokenExpiresAt', use.expiresAt ?? now / 1000 + 365 * 86_400);
  c.set('sessionId', undefined);
  c.set('apiKeyId', use.keyId);
}

/** Whether the request carries an API key, and if so act as it (see {@link actAsApiKey}). */
export async function actAsApiKeyIfGiven(
  c: Context<{ Variables: AuthVariables }>,
  gate: ApiKeyGate,
): Promise<boolean> {
  if (c.get('apiKeyId')) return true;
  const text = apiKeyOf(c.req.header('authorization'));
  if (text === undefined) return false;
  await actAsApiKey(c, gate, text);
  return true;
}

/** The gate of a server's context. */
export function apiKeyGateOf(ctx: ServerContext): ApiKeyGate {
  return {
    db: ctx.db,
    codeKey: ctx.codeKey,
    bucket: bucketOf(ctx.env.API_KEY_RATE_LIMIT),
    trustProxy: ctx.env.TRUST_PROXY,
    companyDomain: ctx.env.COMPANY_DOMAIN,
    now: ctx.now,
  };
}
