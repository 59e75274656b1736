import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PreparedPool } from './prepared-pool.ts';
import type { Database } from './schema.ts';

// Counts and ids come back as numbers, not strings: every count here fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * Where the data lives: a PostgreSQL URL, or a PGlite folder (or `memory://`). A PGlite database
 * in memory may start from a dump of another (`PGlite.dumpDataDir`, uncompressed) instead of an
 * empty cluster, as the tests do from one migrated once per run.
 */
export type DatabaseTarget = { url: string } | { pgliteDir: string; from?: Blob };

/**
 * Open the one query layer (Kysely over `pg`) on PostgreSQL or, through its node-postgres adapter,
 * on PGlite. PGlite is one connection in one process, so its pool holds one client. On
 * PostgreSQL, statements are prepared once per connection (see `PreparedPool`).
 */
export function openDatabase(target: DatabaseTarget, poolSize = 10): Kysely<Database> {
  if ('url' in target) {
    const pool = new pg.Pool({ connectionString: target.url, max: poolSize });
    // An idle client dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (error) => console.error('[database] idle connection lost:', error.message));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PreparedPool(pool) }) });
  }
  if (!target.pgliteDir.startsWith('memory://')) mkdirSync(target.pgliteDir, { recursive: true });
  // The one connection stays open, so what it LISTENs to stays heard (listenOnEmbedded).
  const options = target.from ? { loadDataDir: target.from } : {};
  const pool = new pg.Pool({
    ...createPgConfig(target.pgliteDir, options),
    max: 1,
    idleTimeoutMillis: 0,
  });
  const notifications = new EventEmitter();
  pool.on('connect', (client) =>
    client.on('notification', (note) => notifications.emit(note.channel, note.payload)),
  );
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  embedded.set(db, notifications);
  return db;
}

/** The notifications of each embedded database's one connection, by channel. */
const embedded = new WeakMap<Kysely<Database>, EventEmitter>();

/**
 * Hear NOTIFY on `channel` of an embedded database (PGlite): its one connection LISTENs, and hears
 * what any query of the process notifies. PostgreSQL needs a connection of its own instead (see
 * the live feeds). Answers the function that stops hearing.
 * @throws {Error} when `db` is not an embedded database opened here.
 */
export async function listenOnEmbedded(
  db: Kysely<Database>,
  channel: string,
  hear: (payload: string | undefined) => void,
): Promise<() => void> {
  const notifications = embedded.get(db);
  if (!notifications) throw new Error('listenOnEmbedded: not an embedded database');
  await sql.raw(`LISTEN ${channel}`).execute(db);
  notifications.on(channel, hear);
  return () => notifications.off(channel, hear);
}
