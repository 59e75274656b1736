import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { tooManyAttempts } from '../http/errors.ts';
import { type LimitCounter, limitKey, windowStartAt } from './rate-limit.ts';
import { secondsLeft, waitText } from './wait-text.ts';

/**
 * Limits on failed attempts (wrong passwords, wrong codes) in a fixed window. Only failures count,
 * so a person who gets it right is never refused because of attempts that were not theirs:
 * - `perSource`: failures on one account from one address; past it that address is refused for
 *   that account (even with the right secret, which stops a guesser from confirming a hit);
 * - `perAddress`: failures from one address over all accounts (spraying);
 * - `ceiling`: failures on one account from every address; past it, each address that has failed
 *   on the account even once is refused for it, while addresses without failures still get in.
 */
export interface FailurePolicy {
  name: string;
  /** What was refused and what else to do, around the wait: `(wait) => 'Too many …; try again ' + wait`. */
  refusal: (wait: string) => string;
  windowSeconds: number;
  perSource: number;
  perAddress: number;
  ceiling: number;
}

function keys(policy: FailurePolicy, account: string, address: string) {
  return {
    address: limitKey(`${policy.name}:address:${address}`),
    source: limitKey(`${policy.name}:source:${account}:${address}`),
    account: limitKey(`${policy.name}:account:${account}`),
  };
}

/** 429 saying how long from `at` until the window ends, when the address may try again. */
function tooMany(policy: FailurePolicy, windowStart: Date, at: number) {
  const wait = secondsLeft(windowStart, policy.windowSeconds, at);
  return tooManyAttempts(policy.refusal(waitText(wait)), wait);
}

/** An attempt counted as a failure until it is known to have succeeded. */
export interface Attempt {
  /** The secret was right: the attempt no longer counts. */
  succeeded(): Promise<void>;
}

/**
 * Takes an attempt back, one key per statement. A statement that updated all three rows would hold
 * some of their locks while waiting for the rest, in an order of its own, and deadlock on
 * PostgreSQL with the counting insert of a parallel attempt (which locks them in `keyList` order).
 */
async function undo(db: Kysely<Database>, keyList: string[], window_start: Date): Promise<void> {
  for (const key of keyList) {
    await db
      .updateTable('rate_limits')
      .set({ hits: sql`rate_limits.hits - 1` })
      .where('key', '=', key)
      .where('window_start', '=', window_start)
      .execute();
  }
}

/**
 * Count an attempt as a failure in advance (so a burst of parallel guesses is bounded too) and
 * refuse it with 429 when this address may not try this account now; a refused attempt does not
 * count. Call `succeeded()` when the secret was right.
 * @throws {ApiError} 429 `rate_limited`.
 */
export async function beginAttempt(
  { db, now }: LimitCounter,
  policy: FailurePolicy,
  account: string,
  address: string,
): Promise<Attempt> {
  const k = keys(policy, account, address);
  const keyList = [k.address, k.source, k.account];
  const at = now();
  const window_start = windowStartAt(at, policy.windowSeconds);
  const rows = await db
    .insertInto('rate_limits')
    .values(keyList.map((key) => ({ key, window_start, hits: 1 })))
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
    .returning(['key', 'hits'])
    .execute();
  const hits = (key: string) => rows.find((row) => row.key === key)?.hits ?? 0;
  const refused =
    hits(k.address) > policy.perAddress ||
    hits(k.source) > policy.perSource ||
    (hits(k.account) > policy.ceiling && hits(k.source) > 1);
  if (refused) {
    await undo(db, keyList, window_start);
    throw tooMany(policy, window_start, at);
  }
  return { succeeded: () => undo(db, keyList, window_start) };
}
