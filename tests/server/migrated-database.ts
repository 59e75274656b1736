import { Blob as NodeBlob } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrate } from '../../server/db/migrations.ts';
import type { Database } from '../../server/db/schema.ts';

/** The variable naming the run's dump (set by `setup` for the test files, unset elsewhere). */
const DUMP_PATH = 'FLEET_TEST_MIGRATED_PGLITE';

/**
 * Once per run of the node group: an empty PGlite database migrated by this checkout's migrations,
 * dumped to a file that the test servers start from (`migratedStart`). Creating a cluster (initdb)
 * and migrating it cost about 7 s of CPU per server on this machine, against about 1 s from the
 * dump. Each server still runs the migrations at start and finds nothing to do. The migrations
 * themselves are tested from an empty database and from older schemas by their own files, which
 * open their databases without the dump. Under TEST_DATABASE_URL there is nothing to do.
 */
export default async function setup(): Promise<() => void> {
  if (process.env.TEST_DATABASE_URL) return () => {};
  const pglite = await PGlite.create('memory://');
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ ...createPgConfig(pglite), max: 1 }) }),
  });
  // The options only fill rows that exist before a migration: an empty database has none.
  await migrate(db, {});
  await db.destroy();
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const dir = mkdtempSync(join(tmpdir(), 'fleet-migrated-'));
  const path = join(dir, 'pglite.tar');
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  // Read by the test workers, which start after the global set-up with its environment.
  process.env[DUMP_PATH] = path;
  return () => {
    delete process.env[DUMP_PATH];
    rmSync(dir, { recursive: true, force: true });
  };
}

/** The dump as read by this worker, and from where. */
let kept: { path: string; blob: Blob } | undefined;

/**
 * The run's migrated dump, to start a PGlite database in memory from; undefined outside a run.
 * Node's own Blob, also under jsdom (whose Blob PGlite cannot read). Read once per worker: reading
 * never changes a Blob, and reading the 40 MB file into a new one for every database was about
 * 25 s of the node group's CPU.
 */
export function migratedStart(): Blob | undefined {
  const path = process.env[DUMP_PATH];
  if (!path) return undefined;
  if (kept?.path !== path) {
    // The same object as the DOM's Blob to PGlite; the two libraries' types differ only in `bytes()`.
    kept = { path, blob: new NodeBlob([readFileSync(path)]) as unknown as Blob };
  }
  return kept.blob;
}

/**
 * Unpacks the run's migrated dump into `folder`, a server process's PGlite folder
 * (`DATA_DIR/pglite`): the process then opens a migrated cluster instead of creating one (about
 * 4 s of CPU). Answers false, and leaves the folder alone, outside a run.
 */
export function unpackMigrated(folder: string): boolean {
  const path = process.env[DUMP_PATH];
  if (!path) return false;
  mkdirSync(folder, { recursive: true });
  // The dump's names begin with "/", which tar strips (and says so on stderr, kept quiet here).
  execFileSync('tar', ['-xf', path, '-C', folder], { stdio: ['ignore', 'ignore', 'pipe'] });
  return true;
}
