import type { Context } from 'hono';
import type { ServerContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import { limitChecks } from '../limits/request-limits.ts';
import { hitRateLimit } from './rate-limit.ts';
import { familyOf, revokeFamily, type TokenService } from './refresh-tokens.ts';

/**
 * Sign out one sign-in (`POST /auth/v2/logout` of either service): revoke the refresh-token family
 * of a refresh token of this service, whatever state the token is in, and with it every access
 * token of that sign-in: this process refuses them at once, every other within a second
 * (`SessionCutoffs`). An unknown token changes nothing and answers the same. Limited per address
 * and per user of the token.
 * @throws {ApiError} 429 `rate_limited`.
 */
export async function signOut(ctx: ServerContext, c: Context, token: string, service: TokenService) {
  await hitRateLimit(ctx, limitChecks('logout', { logoutPerAddress: clientAddress(c, ctx.env.TRUST_PROXY) }));
  const family = await familyOf(ctx.db, token, service);
  if (!family) return;
  await hitRateLimit(ctx, limitChecks('logout', { logoutPerUser: family.userId }));
  await revokeFamily(ctx.db, family.familyId, ctx.now());
  ctx.sessions.signedOut(family.familyId, family.userId);
}
