import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimCodeHash } from '../../server/commissioning/claim-codes.ts';
import { openDatabase } from '../../server/db/database.ts';

/** `npm run devices:register -- <csv>` as a deployment runs it: a real process on a database folder. */
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fleet-register-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function register(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/commissioning/register-devices-cli.ts', ...args],
      {
        env: { ...process.env, DATA_DIR: join(dir, 'data'), DATABASE_URL: '' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('npm run devices:register', () => {
  it('registers a list into the database folder, keeping hashes only, and refuses a bad list whole', async () => {
    const list = join(dir, 'list.csv');
    await writeFile(
      list,
      'serial,model,claim_code\nHX5K-26-050001,HX-5000,K7M2-Q9XD-4TRW-8HNB\nBX10-26-050001,BX-10,ZZZZ-0000-AAAA-1111\n',
    );
    const done = await register(list);
    expect(done.stderr).toBe('');
    expect(done.stdout).toContain('Registered 2 new device(s); 0 were registered already.');
    expect(done.status).toBe(0);
    const bad = join(dir, 'bad.csv');
    await writeFile(
      bad,
      'serial,model,claim_code\nHX5K-26-050002,HX-5000,K7M2-Q9XD-4TRW-8HNB\nHX5K-26-050003,HX-5000,short\n',
    );
    const refused = await register(bad);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('line 3: the claim code of HX5K-26-050003 is not 16 characters');
    expect((await register()).status).toBe(2);
    const db = openDatabase({ pgliteDir: join(dir, 'data', 'pglite') }, 1);
    try {
      const rows = await db
        .selectFrom('device_registrations')
        .select(['serial', 'claim_code_hash'])
        .orderBy('serial')
        .execute();
      expect(rows).toEqual([
        { serial: 'BX10-26-050001', claim_code_hash: claimCodeHash('ZZZZ0000AAAA1111') },
        { serial: 'HX5K-26-050001', claim_code_hash: claimCodeHash('K7M2Q9XD4TRW8HNB') },
      ]);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
