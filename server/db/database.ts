import { mkdirSync } from 'node:fs';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PreparedPool } from './prepared-pool.ts';
import type { Database } from './schema.ts';

// Counts and ids come back as numbers, not strings: every count here fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Where the data lives: a PostgreSQL URL, or a PGlite folder (or `memory://`). */
export type DatabaseTarget = { url: string } | { pgliteDir: string };

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
  const pool = new pg.Pool({ ...createPgConfig(target.pgliteDir), max: 1 });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
