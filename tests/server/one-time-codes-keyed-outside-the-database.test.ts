import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_KEY_FILE, loadCodeKey } from '../../server/auth/code-key.ts';
import { migrate } from '../../server/db/migrations.ts';
import { EnvError, parseEnv } from '../../server/env.ts';
import { IDS, PASSWORDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
const temp = mkdtempSync(join(tmpdir(), 'fleet-code-key-'));
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  rmSync(temp, { recursive: true, force: true });
});

describe('one-time codes', () => {
  it('are stored as an HMAC under a key outside the database, not as a plain hash a dump can be tested against', async () => {
    const email = PASSWORDS.owner[0];
    expect(
      (await t.call('POST', '/config/users/password-reset', { body: { main_email: email } })).status,
    ).toBe(202);
    const code = await t.codeFor(email);
    const stored = await t.server.ctx.db
      .selectFrom('one_time_codes')
      .select('code_hash')
      .where('user_id', '=', IDS.owner)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    const plain = createHash('sha256').update(`${IDS.owner}:${code}`).digest('hex');
    expect(stored.code_hash).not.toBe(plain);
    expect(stored.code_hash).toBe(
      createHmac('sha256', t.server.ctx.codeKey).update(`${IDS.owner}:${code}`).digest('hex'),
    );
    const changed = await t.call('PUT', '/config/users/password', {
      headers: { main_email: email, temp_code: code, new_password: 'A-new-password#1' },
    });
    expect(changed.status).toBe(204);
  });

  it('made before the keyed hash are expired by its migration', async () => {
    const db = t.server.ctx.db;
    await db
      .insertInto('one_time_codes')
      .values({
        user_id: IDS.installerB,
        purpose: 'access',
        code_hash: createHash('sha256').update(`${IDS.installerB}:12345678`).digest('hex'),
        expires_at: new Date(Date.now() + 86_400_000),
      })
      .execute();
    await sql`DELETE FROM schema_migrations WHERE version = 9`.execute(db);
    expect(await migrate(db)).toEqual([9]);
    const live = await db
      .selectFrom('one_time_codes')
      .select('id')
      .where('user_id', '=', IDS.installerB)
      .where('used_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });
});

describe('the one-time-code key', () => {
  it('is generated into the data folder on first start, readable by the server user only, and kept', () => {
    const first = loadCodeKey(temp);
    expect(first.length).toBe(32);
    expect(statSync(join(temp, CODE_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(loadCodeKey(temp).equals(first)).toBe(true);
  });

  it('comes from CODE_HMAC_KEY when set, and a short one stops the start naming it', () => {
    const given = Buffer.alloc(32, 7).toString('base64url');
    expect(loadCodeKey(temp, given).equals(Buffer.alloc(32, 7))).toBe(true);
    expect(parseEnv({ CODE_HMAC_KEY: given }).CODE_HMAC_KEY).toBe(given);
    expect(() => parseEnv({ CODE_HMAC_KEY: 'too-short' })).toThrow(EnvError);
    expect(() => parseEnv({ CODE_HMAC_KEY: 'too-short' })).toThrow(/CODE_HMAC_KEY/);
  });
});
