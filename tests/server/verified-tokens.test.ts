import { createLocalJWKSet } from 'jose';
import { describe, expect, it } from 'vitest';
import { TOKEN_ISSUERS } from '../../contracts/services.ts';
import { signAccessToken } from '../../server/auth/access-tokens.ts';
import { generateSigningKey } from '../../server/auth/signing-keys.ts';
import { VerifiedTokens } from '../../server/auth/verified-tokens.ts';

const user = {
  id: 2,
  email: 'installer@solarpros.example',
  name: 'Ina Installer',
  role: 'installer' as const,
};

async function setUp(now: () => number = Date.now, capacity = 10) {
  const { key } = await generateSigningKey();
  const keys = createLocalJWKSet({ keys: [key.publicJwk] });
  return { key, tokens: new VerifiedTokens(keys, TOKEN_ISSUERS.config, capacity, now) };
}

describe('VerifiedTokens', () => {
  it('answers the principal of a good token, again from memory', async () => {
    const { key, tokens } = await setUp();
    const token = await signAccessToken(key, TOKEN_ISSUERS.config, user, 60);
    expect(await tokens.verify(token)).toEqual(user);
    expect(await tokens.verify(token)).toEqual(user);
    expect(tokens.size).toBe(1);
  });

  it('refuses a remembered token once its expiry has passed', async () => {
    let clock = Date.now();
    const { key, tokens } = await setUp(() => clock);
    const token = await signAccessToken(key, TOKEN_ISSUERS.config, user, 60);
    expect(await tokens.verify(token)).not.toBeNull();
    clock += 61_000;
    expect(await tokens.verify(token)).toBeNull();
    expect(tokens.size).toBe(0);
  });

  it('refuses and does not remember a tampered, foreign-issuer or other-key token', async () => {
    const { key, tokens } = await setUp();
    const good = await signAccessToken(key, TOKEN_ISSUERS.config, user, 60);
    const [head, , signature] = good.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: '1', role: 'admin' })).toString('base64url')}.${signature}`;
    const foreign = await signAccessToken(key, TOKEN_ISSUERS.monitoring, user, 60);
    const other = await signAccessToken((await generateSigningKey()).key, TOKEN_ISSUERS.config, user, 60);
    for (const token of [forged, foreign, other, 'not-a-token'])
      expect(await tokens.verify(token)).toBeNull();
    expect(tokens.size).toBe(0);
  });

  it('keeps at most its capacity, forgetting the oldest first', async () => {
    const { key, tokens } = await setUp(Date.now, 2);
    const signed = await Promise.all(
      [1, 2, 3].map((id) => signAccessToken(key, TOKEN_ISSUERS.config, { ...user, id }, 60)),
    );
    for (const token of signed) await tokens.verify(token);
    expect(tokens.size).toBe(2);
    expect((await tokens.verify(signed[0] as string))?.id).toBe(1);
  });
});
