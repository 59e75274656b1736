import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../server/auth/signing-keys.ts';
import { createServer } from '../../server/create-server.ts';
import { wantsDemoSeed } from '../../server/db/seed.ts';
import { EnvError, parseEnv } from '../../server/env.ts';
import { migratedStart } from './migrated-database.ts';

const scryptCost = { N: 1024, r: 8, p: 1 };
const temp = mkdtempSync(join(tmpdir(), 'fleet-start-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const keys = async () => ({
  config: (await generateSigningKey()).key,
  monitoring: (await generateSigningKey()).key,
});
/** A deployment's own firmware key (its public half, as FIRMWARE_PUBLIC_KEYS names it). */
const FIRMWARE_PUBLIC_KEYS = generateKeyPairSync('ed25519')
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');
const mode = (path: string) => statSync(path).mode & 0o777;

function runMain(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const { API_KEY: _api, LINK_KEY: _link, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/main.ts'],
      { env: { ...inherited, ...env }, timeout: 60_000 },
      (error, _out, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
    );
  });
}

describe('a production start', () => {
  it('refuses the dev-* API_KEY and LINK_KEY defaults when NODE_ENV=production, naming both', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(EnvError);
    try {
      parseEnv({ NODE_ENV: 'production', MAIL_LOG_CODES: '1' });
    } catch (error) {
      expect(String(error)).toMatch(/API_KEY: set a key of your own/);
      expect(String(error)).toMatch(/LINK_KEY: set a key of your own/);
      expect(String(error)).toMatch(/MAIL_LOG_CODES:/);
    }
    const own = parseEnv({
      NODE_ENV: 'production',
      API_KEY: 'k3y-of-our-own',
      LINK_KEY: 'fleet:s3cret-link',
      PUBLIC_APP_URL: 'https://fleet.example.com',
      FIRMWARE_PUBLIC_KEYS,
    });
    expect(own.API_KEY).toBe('k3y-of-our-own');
    expect(parseEnv({ NODE_ENV: 'development' }).API_KEY).toBe('dev-api-key');
  });

  it('stops server/main.ts with exit code 1 before it listens', async () => {
    const run = await runMain({ NODE_ENV: 'production', DATA_DIR: join(temp, 'never') });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('API_KEY: set a key of your own');
  }, 120_000);

  it('seeds demo users into the embedded database by default, and into PostgreSQL only with SEED_DEMO=1', () => {
    expect(wantsDemoSeed(undefined, true, false)).toBe(true);
    expect(wantsDemoSeed(undefined, false, false)).toBe(false);
    expect(wantsDemoSeed(true, false, false)).toBe(true);
    expect(wantsDemoSeed(false, true, false)).toBe(false);
  });

  it('seeds no demo users in production, even on the embedded database, unless SEED_DEMO=1', () => {
    expect(wantsDemoSeed(undefined, true, true)).toBe(false);
    expect(wantsDemoSeed(undefined, false, true)).toBe(false);
    expect(wantsDemoSeed(true, true, true)).toBe(true);
  });

  it.each([
    [{}, false],
    [{ SEED_DEMO: '1' }, true],
  ])(
    'leaves the embedded database of a NODE_ENV=production start without demo users (%j seeds: %s)',
    async (extra, seeds) => {
      const server = await createServer({
        env: parseEnv({
          NODE_ENV: 'production',
          API_KEY: 'k3y-of-our-own',
          LINK_KEY: 'fleet:s3cret-link',
          PUBLIC_APP_URL: 'https://fleet.example.com',
          FIRMWARE_PUBLIC_KEYS,
          DATA_DIR: join(temp, 'unused'),
          ...extra,
        }),
        database: { pgliteDir: 'memory://', from: migratedStart() },
        keys: await keys(),
        scryptCost,
      });
      try {
        expect(server.demo).toBe(seeds);
        const admins = await server.ctx.db
          .selectFrom('users')
          .select('id')
          .where('main_email', '=', 'admin@fleet.example')
          .execute();
        expect(admins).toHaveLength(seeds ? 1 : 0);
      } finally {
        await server.close();
      }
    },
    120_000,
  );

  it('leaves an embedded database empty with SEED_DEMO=0', async () => {
    const server = await createServer({
      env: parseEnv({ DATA_DIR: join(temp, 'unused'), SEED_DEMO: '0' }),
      database: { pgliteDir: 'memory://', from: migratedStart() },
      keys: await keys(),
      scryptCost,
    });
    try {
      expect(server.seeded).toBe(false);
      expect(server.demo).toBe(false);
      expect(await server.ctx.db.selectFrom('users').select('id').execute()).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('seeds the demo without its week of history with SEED_DEMO_HISTORY=0, where a data folder would have it', async () => {
    expect(parseEnv({ SEED_DEMO_HISTORY: '0' }).SEED_DEMO_HISTORY).toBe(false);
    expect(parseEnv({}).SEED_DEMO_HISTORY).toBeUndefined();
    expect(() => parseEnv({ SEED_DEMO_HISTORY: 'yes' })).toThrow(EnvError);
    // No keys given: the server keeps its own in the data folder, as `npm start` does.
    const server = await createServer({
      env: parseEnv({ DATA_DIR: join(temp, 'no-history'), SEED_DEMO_HISTORY: '0' }),
      database: { pgliteDir: 'memory://', from: migratedStart() },
      scryptCost,
      seed: true,
    });
    try {
      expect(server.demo).toBe(true);
      const readings = await server.ctx.db
        .selectFrom('telemetry_raw')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(readings.n).toBe(0);
    } finally {
      await server.close();
    }
  }, 120_000);

  it.runIf(process.env.TEST_DATABASE_URL)(
    'seeds nothing into a PostgreSQL database without SEED_DEMO',
    async () => {
      const base = process.env.TEST_DATABASE_URL ?? '';
      const name = `fleet_noseed_${Date.now()}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      try {
        const server = await createServer({
          env: parseEnv({ DATA_DIR: join(temp, 'unused') }),
          database: { url: url.toString() },
          keys: await keys(),
          scryptCost,
        });
        expect(server.seeded).toBe(false);
        expect(await server.ctx.db.selectFrom('users').select('id').execute()).toEqual([]);
        await server.close();
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
  );

  it('makes the data folder private to the server user, tightening an existing one', async () => {
    const dataDir = join(temp, 'data');
    mkdirSync(join(dataDir, 'pglite', 'base'), { recursive: true });
    writeFileSync(join(dataDir, 'pglite', 'base', 'old-file'), 'x');
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'pglite'), 0o777);
    chmodSync(join(dataDir, 'pglite', 'base', 'old-file'), 0o644);
    const server = await createServer({
      env: parseEnv({ DATA_DIR: dataDir }),
      database: { pgliteDir: 'memory://', from: migratedStart() },
      scryptCost,
      seed: false,
    });
    await server.close();
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'pglite'))).toBe(0o700);
    expect(mode(join(dataDir, 'pglite', 'base'))).toBe(0o700);
    expect(mode(join(dataDir, 'pglite', 'base', 'old-file'))).toBe(0o600);
    expect(mode(join(dataDir, 'config-signing-key.json'))).toBe(0o600);
    expect(mode(join(dataDir, 'monitoring-signing-key.json'))).toBe(0o600);
  }, 120_000);
});
