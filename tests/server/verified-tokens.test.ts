import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
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
  const keySet = createLocalJWKSet({ keys: [key.publicJwk] });
  // A remembered token is answered without a key lookup: counting lookups tells what was forgotten.
  const lookups = { count: 0 };
  const keys: JWTVerifyGetKey = (header, token) => {
    lookups.count += 1;
    return keySet(header, token);
  };
  return { key, lookups, tokens: new VerifiedTokens(keys, TOKEN_ISSUERS.config, now, capacity) };
}

describe('VerifiedTokens', () => {
  it('answers the principal of a good token, again from memory', async () => {
    const { key, tokens } = await setUp();
    const token = await signAccessToken(key, TOKEN_ISSUERS.config, user, 60, Date.now());
    expect(await tokens.verify(token)).toEqual(user);
    expect(await tokens.verify(token)).toEqual(user);
    expect(tokens.size).toBe(1);
  });

  it('refuses a remembered token once its expiry has passed', async () => {
    let clock = Date.now();
    const { key, tokens } = await setUp(() => clock);
    const token = await signAccessToken(key, TOKEN_ISSUERS.config, user, 60, clock);
    expect(await tokens.verify(token)).not.toBeNull();
    clock += 61_000;
    expect(await tokens.verify(token)).toBeNull();
    expect(tokens.size).toBe(0);
  });

  it('reads issue and expiry on the clock it is given, to the millisecond', async () => {
    // Months behind the real time: read on the real time, the token would be long expired.
    const issued = Date.UTC(2026, 2, 1, 9, 0, 0, 250);
    let clock = issued;
    const { key, tokens } = await setUp(() => clock);
    const token = await signAccessToken(key, TOKEN_ISSUERS.config, user, 60, clock);
    const expires = Date.UTC(2026, 2, 1, 9, 1, 0);
    clock = expires - 1;
    expect(await tokens.verifyClaims(token)).toMatchObject({
      issuedAt: issued / 1000,
      expiresAt: expires / 1000,
    });
    clock = expires;
    expect(await tokens.verify(token)).toBeNull();
    // Not remembered either: a fresh verifier refuses it as well.
    const fresh = await setUp(() => clock);
    expect(await fresh.tokens.verify(token)).toBeNull();
  });

  it('refuses and does not remember a tampered, foreign-issuer or other-key token', async () => {
    const { key, tokens } = await setUp();
    const good = await signAccessToken(key, TOKEN_ISSUERS.config, user, 60, Date.now());
    const [head, , signature] = good.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: '1', role: 'admin' })).toString('base64url')}.${signature}`;
    const foreign = await signAccessToken(key, TOKEN_ISSUERS.monitoring, user, 60, Date.now());
    const other = await signAccessToken(
      (await generateSigningKey()).key,
      TOKEN_ISSUERS.config,
      user,
      60,
      Date.now(),
    );
    for (const token of [forged, foreign, other, 'not-a-token'])
      expect(await tokens.verify(token)).toBeNull();
    expect(tokens.size).toBe(0);
  });

  it('keeps at most its capacity, forgetting the oldest first', async () => {
    const { key, lookups, tokens } = await setUp(Date.now, 2);
    const [first, second, third] = await Promise.all(
      [1, 2, 3].map((id) => signAccessToken(key, TOKEN_ISSUERS.config, { ...user, id }, 60, Date.now())),
    );
    if (!first || !second || !third) throw new Error('three tokens were signed');
    for (const token of [first, second, third]) await tokens.verify(token);
    expect(tokens.size).toBe(2);
    expect(lookups.count).toBe(3);
    // The two newest are still remembered: answered with no key lookup.
    expect((await tokens.verify(third))?.id).toBe(3);
    expect((await tokens.verify(second))?.id).toBe(2);
    expect(lookups.count).toBe(3);
    // The oldest was forgotten: it is verified again, and now the second-oldest goes.
    expect((await tokens.verify(first))?.id).toBe(1);
    expect(lookups.count).toBe(4);
    expect(tokens.size).toBe(2);
  });
});
