import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../tests/free-port.ts';

/** A PostgreSQL for a benchmark: `url` of a superuser, and `stop()` (which removes a cluster it made). */
export interface BenchPostgres {
  url: string;
  /** Where the server writes files for `COPY … TO`/`FROM` (a cluster of its own: yes). */
  local: boolean;
  /** `pg_ctl restart -m fast` (a cluster of its own only): every connection is cut. */
  restart(): Promise<void>;
  stop(): void;
}

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * `DATABASE_URL` when set; else a throwaway PostgreSQL 15 cluster (Debian's binaries, as `.ci/run`
 * makes one) on a free port with its settings left at their defaults, removed by `stop()`. As root
 * the cluster runs as the `postgres` user, since `initdb` refuses root.
 */
export async function benchPostgres(
  settings: {
    /** Load `pg_stat_statements` (a cluster of its own only), for a bench that reports time per statement. */
    statementStats?: boolean;
  } = {},
): Promise<BenchPostgres> {
  if (process.env.DATABASE_URL)
    return {
      url: process.env.DATABASE_URL,
      local: false,
      restart: () =>
        Promise.reject(
          new Error('a PostgreSQL given by DATABASE_URL is not restarted: unset it for a cluster of its own'),
        ),
      stop: () => {},
    };
  if (!existsSync(join(PG_BIN, 'initdb')))
    throw new Error(`No PostgreSQL in ${PG_BIN}: set DATABASE_URL or PG_BIN`);
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-pg-'));
  chmodSync(dir, 0o755);
  const uid = root ? Number(execFileSync('id', ['-u', 'postgres']).toString()) : undefined;
  if (uid !== undefined) chownSync(dir, uid, uid);
  const run = (bin: string, args: string[]) =>
    execFileSync(
      root ? 'runuser' : join(PG_BIN, bin),
      root ? ['-u', 'postgres', '--', join(PG_BIN, bin), ...args] : args,
      {
        stdio: 'ignore',
      },
    );
  const port = await freePort();
  run('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100${
    settings.statementStats ? ' -c shared_preload_libraries=pg_stat_statements' : ''
  }`;
  run('pg_ctl', ['-D', join(dir, 'data'), '-w', '-l', join(dir, 'log'), '-o', options, 'start']);
  // Without blocking the caller, whose sockets go on working meanwhile.
  const restart = () => {
    const args = [
      '-D',
      join(dir, 'data'),
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      options,
      '-m',
      'fast',
      'restart',
    ];
    return new Promise<void>((resolve, reject) =>
      execFile(
        root ? 'runuser' : join(PG_BIN, 'pg_ctl'),
        root ? ['-u', 'postgres', '--', join(PG_BIN, 'pg_ctl'), ...args] : args,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  };
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    try {
      run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // A run interrupted (Ctrl-C, see stopOnSignals) leaves no cluster behind.
  process.on('exit', stop);
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, local: true, restart, stop };
}

/**
 * Makes SIGINT and SIGTERM end the process through its `exit` handlers (which Node skips on a
 * signal by default), so what a bench started is stopped when the bench is.
 */
export function stopOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      console.error(`[bench] ${signal}: stopping what the run started`);
      process.exit(130);
    });
}
