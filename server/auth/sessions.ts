import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { revokeUserTokens } from './refresh-tokens.ts';

/**
 * Each user's session cut-off (`users.sessions_valid_after`), read at most once a second per user
 * and process: an access token issued before it answers 401 on both services. A change made by
 * this process is seen at once; one made by another process within `maxAgeMs`.
 */
export class SessionCutoffs {
  readonly #entries = new Map<number, { cutoffMs: Promise<number | null | undefined>; readAt: number }>();

  constructor(
    readonly db: Kysely<Database>,
    readonly maxAgeMs = 1000,
    readonly capacity = 50_000,
    readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether a token of this user issued at `issuedAt` (seconds since the epoch, fractional) is
   * still good: the user exists and the token is not older than their cut-off.
   */
  async isCurrent(userId: number, issuedAt: number): Promise<boolean> {
    const cutoff = await this.#cutoff(userId);
    if (cutoff === undefined) return false;
    return cutoff === null || Math.round(issuedAt * 1000) >= cutoff;
  }

  /** Drop what this process knows of a user, after their cut-off moved. */
  forget(userId: number): void {
    this.#entries.delete(userId);
  }

  #cutoff(userId: number): Promise<number | null | undefined> {
    const known = this.#entries.get(userId);
    if (known && this.now() - known.readAt < this.maxAgeMs) return known.cutoffMs;
    if (this.#entries.size >= this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    const cutoffMs = this.db
      .selectFrom('users')
      .select('sessions_valid_after')
      .where('id', '=', userId)
      .executeTakeFirst()
      .then((row) => (row ? (row.sessions_valid_after?.getTime() ?? null) : undefined));
    // A failed read is not remembered: the next request asks again.
    cutoffMs.catch(() => this.#entries.delete(userId));
    this.#entries.delete(userId);
    this.#entries.set(userId, { cutoffMs, readAt: this.now() });
    return cutoffMs;
  }
}

/**
 * End every session of a user on both services: refresh families revoked, and access tokens
 * issued before now refused. Run inside the transaction that changes the password or e-mail, then
 * `forget` the user in the process's `SessionCutoffs` once it commits.
 */
export async function endSessions(db: Kysely<Database>, userId: number): Promise<void> {
  await db.updateTable('users').set({ sessions_valid_after: new Date() }).where('id', '=', userId).execute();
  await revokeUserTokens(db, userId);
}
