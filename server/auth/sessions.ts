import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { revokeUserTokens } from './refresh-tokens.ts';

interface Cached<T> {
  value: Promise<T>;
  readAt: number;
  /** A verdict that cannot change (a revoked sign-in): kept past the age limit. */
  kept?: boolean;
}

/**
 * Whether an access token's session still holds, read from the database at most once a second per
 * user and per sign-in, in each process:
 * - each user's cut-off (`users.sessions_valid_after`): a token issued before it is refused (a
 *   password or e-mail change ended every session);
 * - each sign-in's refresh-token family: a token of a family that was revoked (signed out, or a
 *   refresh token replayed) is refused.
 * A change made through this process is seen at once (`forget`, `signedOut`); one made through
 * another process within `maxAgeMs`. A revoked family never comes back, so that verdict is kept.
 */
export class SessionCutoffs {
  readonly #cutoffs = new Map<number, Cached<number | null | undefined>>();
  readonly #families = new Map<string, Cached<boolean>>();
  /** Told of every user whose sessions ended through this process (live streams look again). */
  onEnded: (userId: number) => void = () => {};

  constructor(
    readonly db: Kysely<Database>,
    readonly maxAgeMs = 1000,
    readonly capacity = 50_000,
    readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether a token of this user issued at `issuedAt` (seconds since the epoch, fractional), of
   * the sign-in `sessionId` when it names one, is still good: the user exists, the token is not
   * older than their cut-off, and the sign-in was not revoked.
   */
  async isCurrent(userId: number, issuedAt: number, sessionId?: string): Promise<boolean> {
    const [cutoff, revoked] = await Promise.all([
      this.#cutoff(userId),
      sessionId ? this.#revoked(sessionId) : false,
    ]);
    if (cutoff === undefined || revoked) return false;
    return cutoff === null || Math.round(issuedAt * 1000) >= cutoff;
  }

  /**
   * Whether a token's session still holds, read from the database now (what another process
   * changed a moment ago included): for a live stream told that something changed.
   */
  async isCurrentNow(userId: number, issuedAt: number, sessionId?: string): Promise<boolean> {
    this.#cutoffs.delete(userId);
    if (sessionId && !this.#families.get(sessionId)?.kept) this.#families.delete(sessionId);
    return this.isCurrent(userId, issuedAt, sessionId);
  }

  /** Drop what this process knows of a user, after their cut-off moved. */
  forget(userId: number): void {
    this.#cutoffs.delete(userId);
    this.onEnded(userId);
  }

  /** The sign-in `sessionId` of `userId` was revoked through this process: refuse its tokens from now on. */
  signedOut(sessionId: string, userId: number): void {
    this.#remember(this.#families, sessionId, {
      value: Promise.resolve(true),
      readAt: this.now(),
      kept: true,
    });
    this.onEnded(userId);
  }

  #cutoff(userId: number): Promise<number | null | undefined> {
    return this.#read(this.#cutoffs, userId, () =>
      this.db
        .selectFrom('users')
        .select('sessions_valid_after')
        .where('id', '=', userId)
        .executeTakeFirst()
        .then((row) => (row ? (row.sessions_valid_after?.getTime() ?? null) : undefined)),
    );
  }

  #revoked(sessionId: string): Promise<boolean> {
    return this.#read(this.#families, sessionId, async () => {
      const row = await this.db
        .selectFrom('refresh_tokens')
        .select('id')
        .where('family_id', '=', sessionId)
        .where('revoked_at', 'is not', null)
        .limit(1)
        .executeTakeFirst();
      const entry = this.#families.get(sessionId);
      if (row && entry) entry.kept = true;
      return row !== undefined;
    });
  }

  /** A cached read, fresh for `maxAgeMs`; a failed read is not kept. */
  #read<K, T>(cache: Map<K, Cached<T>>, key: K, load: () => Promise<T>): Promise<T> {
    const known = cache.get(key);
    if (known && (known.kept || this.now() - known.readAt < this.maxAgeMs)) return known.value;
    const entry: Cached<T> = { value: load(), readAt: this.now() };
    // A failed read is not remembered: the next request asks again.
    entry.value.catch(() => {
      if (cache.get(key) === entry) cache.delete(key);
    });
    this.#remember(cache, key, entry);
    return entry.value;
  }

  #remember<K, T>(cache: Map<K, Cached<T>>, key: K, entry: Cached<T>): void {
    cache.delete(key);
    if (cache.size >= this.capacity) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(key, entry);
  }
}

/**
 * End every session of a user on both services at `now` (the server's clock, milliseconds since
 * the epoch, the time access tokens are issued at and API keys created at): refresh families
 * revoked, and access tokens issued and keys created before it refused. Run inside the
 * transaction that changes the password or e-mail, then `forget` the user in the process's
 * `SessionCutoffs` once it commits.
 */
export async function endSessions(db: Kysely<Database>, userId: number, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ sessions_valid_after: new Date(now) })
    .where('id', '=', userId)
    .execute();
  await revokeUserTokens(db, userId, now);
}
