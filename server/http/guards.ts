import type { MiddlewareHandler } from 'hono';
import type { JWTVerifyGetKey } from 'jose';
import { isServiceCommsPath } from '../../contracts/services.ts';
import type { Principal, TokenIssuer } from '../auth/access-tokens.ts';
import { safeEqual } from '../auth/secrets.ts';
import type { SessionCutoffs } from '../auth/sessions.ts';
import { VerifiedTokens } from '../auth/verified-tokens.ts';
import { ApiError, unauthorized } from './errors.ts';

/** Hono variables set by the guards. */
export interface AuthVariables {
  principal: Principal;
}

/**
 * Require the `api-key` header on every path that does not contain `/service-comms`, except the
 * listed ones (the devices list carries its own Basic credentials; the JWKS is public).
 */
export function requireApiKey(apiKey: string, exempt: (path: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    if (!isServiceCommsPath(path) && !exempt(path)) {
      const given = c.req.header('api-key');
      if (!given) throw new ApiError(401, 'api_key_missing', 'The api-key header is missing');
      if (!safeEqual(given, apiKey))
        throw new ApiError(401, 'api_key_invalid', 'The api-key header is wrong');
    }
    await next();
  };
}

/**
 * Require `Authorization: Bearer <access token>` except on public paths; the verified user goes
 * into the `principal` variable. Verified tokens are remembered until they expire; a token issued
 * before its user's sessions were ended (password or e-mail change) answers 401 `session_ended`.
 */
export function requireBearer(
  keys: JWTVerifyGetKey,
  issuer: TokenIssuer,
  isPublic: (path: string) => boolean,
  sessions?: SessionCutoffs,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  const tokens = new VerifiedTokens(keys, issuer);
  return async (c, next) => {
    if (isPublic(c.req.path)) return next();
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw unauthorized('A Bearer access token is required', 'token_missing');
    const verified = await tokens.verifyClaims(match[1]);
    if (!verified) throw unauthorized('The access token is invalid or expired', 'token_invalid');
    if (sessions && !(await sessions.isCurrent(verified.principal.id, verified.issuedAt)))
      throw unauthorized('This session has ended; sign in again', 'session_ended');
    c.set('principal', verified.principal);
    return next();
  };
}
