import { type Kysely, sql } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { tooManyAttempts } from '../http/errors.ts';
import { sha256 } from './secrets.ts';
import { secondsLeft, waitText } from './wait-text.ts';

/** A fixed-window limit: at most `limit` hits per `windowSeconds` for one key. */
export interface Limit {
  limit: number;
  windowSeconds: number;
}

/** Where hits are counted, and the clock their windows are read from: a server's context has both. */
export interface LimitCounter {
  db: Kysely<Database>;
  now: Clock;
}

/**
 * The start of the fixed window of `windowSeconds` that holds the time `at` (windows start at
 * whole multiples of their length since the epoch, so every process agrees on them).
 * @example windowStartAt(130_000, 60) // 1970-01-01T00:02:00.000Z
 */
export function windowStartAt(at: number, windowSeconds: number): Date {
  const windowMs = windowSeconds * 1000;
  return new Date(Math.floor(at / windowMs) * windowMs);
}

/** Longest key stored as it is; a longer one (an address a client wrote) is stored as its hash. */
const MAX_KEY_LENGTH = 200;

/**
 * A rate-limit key the table can index: kept as it is up to 200 characters, else its SHA-256.
 * Keys hold text a client chose (an e-mail, an `X-Forwarded-For` entry), and PostgreSQL refuses
 * an index entry of more than about 2.7 KB.
 * @example limitKey(`hello:address:${'9'.repeat(5000)}`) // 'sha256:…' (71 characters)
 */
export function limitKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${sha256(key)}`;
}

/**
 * Count a hit against each key; true when any is over its limit (the hit counts all the same).
 * State lives in the database (one upsert per key), so every server process agrees.
 */
export async function overRateLimit(
  counter: LimitCounter,
  checks: { key: string; limit: Limit }[],
): Promise<boolean> {
  return (await secondsToWait(counter, checks)) !== null;
}

/** Count a hit against each key; the seconds until every key over its limit has a fresh window, or null. */
async function secondsToWait(
  { db, now }: LimitCounter,
  checks: { key: string; limit: Limit }[],
): Promise<number | null> {
  let wait: number | null = null;
  for (const { key, limit } of checks) {
    const at = now();
    const windowStart = windowStartAt(at, limit.windowSeconds);
    const row = await db
      .insertInto('rate_limits')
      .values({ key: limitKey(key), window_start: windowStart, hits: 1 })
      .onConflict((oc) =>
        oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }),
      )
      .returning('hits')
      .executeTakeFirstOrThrow();
    if (row.hits > limit.limit) wait = Math.max(wait ?? 0, secondsLeft(windowStart, limit.windowSeconds, at));
  }
  return wait;
}

/**
 * Count a hit against each key and refuse with 429 when any is over its limit, saying how long
 * to wait (the message, `Retry-After` and `retryAfter`).
 * @throws {ApiError} 429 `rate_limited`.
 */
export async function hitRateLimit(
  counter: LimitCounter,
  checks: { key: string; limit: Limit }[],
): Promise<void> {
  const wait = await secondsToWait(counter, checks);
  if (wait !== null) throw tooManyAttempts(`Too many requests; try again ${waitText(wait)}.`, wait);
}

/**
 * Drop rate-limit windows, codes and refresh tokens that ended a day ago or more by the server's
 * clock (which set them), and mail delivered or given up 30 days ago by the database's (which
 * wrote `created_at`). Run hourly.
 */
export async function pruneExpired({ db, now }: LimitCounter): Promise<void> {
  const dayAgo = new Date(now() - 86_400_000);
  await db
    .deleteFrom('outbox')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', sql<Date>`now() - interval '30 days'`)
    .execute();
  await db.deleteFrom('rate_limits').where('window_start', '<', dayAgo).execute();
  await db.deleteFrom('one_time_codes').where('expires_at', '<', dayAgo).execute();
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', dayAgo).execute();
}
