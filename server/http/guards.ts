import type { MiddlewareHandler } from 'hono';
import type { JWTVerifyGetKey } from 'jose';
import { actorOf } from '../../contracts/access-policy.ts';
import type { TokenIssuer } from '../auth/access-tokens.ts';
import { safeEqual } from '../auth/secrets.ts';
import type { SessionCutoffs } from '../auth/sessions.ts';
import { VerifiedTokens } from '../auth/verified-tokens.ts';
import type { Clock } from '../clock.ts';
import { withNote } from '../openapi/route-notes.ts';
import { type ApiKeyGate, actAsApiKeyIfGiven } from './api-key-guard.ts';
import type { AuthVariables } from './auth-variables.ts';
import { ApiError, unauthorized } from './errors.ts';

export type { AuthVariables, Caller } from './auth-variables.ts';

/**
 * Require the `api-key` header. A service mounts it before the routes that need it, so which
 * calls go without is decided by where they are registered, never by their path.
 */
export function requireApiKey(
  apiKey: string,
  keys: ApiKeyGate,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  return withNote<MiddlewareHandler<{ Variables: AuthVariables }>>(
    async (c, next) => {
      const given = c.req.header('api-key');
      // A personal API key is all a call needs: it stands in for the app's key too.
      if (!given && (await actAsApiKeyIfGiven(c, keys))) return next();
      if (!given) throw new ApiError(401, 'api_key_missing', 'The api-key header is missing');
      if (!safeEqual(given, apiKey))
        throw new ApiError(401, 'api_key_invalid', 'The api-key header is wrong');
      await next();
    },
    { kind: 'guard', scheme: 'apiKey' },
  );
}

/**
 * Require `Authorization: Bearer <access token>` or `Bearer fm_pat_…` (an API key, which acts as
 * its owner: see `actAsApiKey`); the verified user goes into the `principal` variable. Verified
 * tokens are remembered until they expire; a token issued before its user's sessions were ended
 * (password or e-mail change), or of a sign-in that was signed out, answers 401 `session_ended`.
 * Tokens expire by `now`, the server's clock. Mounted like `requireApiKey`: the public calls are registered before it.
 */
export function requireBearer(
  keys: JWTVerifyGetKey,
  issuer: TokenIssuer,
  sessions: SessionCutoffs,
  companyDomain: string,
  apiKeys: ApiKeyGate,
  now: Clock,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  const tokens = new VerifiedTokens(keys, issuer, now);
  return withNote<MiddlewareHandler<{ Variables: AuthVariables }>>(
    async (c, next) => {
      if (await actAsApiKeyIfGiven(c, apiKeys)) return next();
      const header = c.req.header('authorization') ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match?.[1]) throw unauthorized('A Bearer access token is required', 'token_missing');
      const verified = await tokens.verifyClaims(match[1]);
      if (!verified) throw unauthorized('The access token is invalid or expired', 'token_invalid');
      if (!(await sessions.isCurrent(verified.principal.id, verified.issuedAt, verified.sessionId)))
        throw unauthorized('This session has ended; sign in again', 'session_ended');
      const { principal } = verified;
      c.set('principal', { ...principal, staff: actorOf(principal, companyDomain).staff });
      c.set('tokenExpiresAt', verified.expiresAt);
      c.set('tokenIssuedAt', verified.issuedAt);
      c.set('sessionId', verified.sessionId);
      c.set('apiKeyId', undefined);
      await next();
    },
    { kind: 'guard', scheme: 'bearer' },
  );
}

/**
 * Require Basic credentials equal to `user:password` (the devices list's LINK_KEY), compared in
 * constant time.
 */
export function requireBasic(credentials: string, realm: string): MiddlewareHandler {
  const expected = `Basic ${Buffer.from(credentials).toString('base64')}`;
  return withNote<MiddlewareHandler>(
    async (c, next) => {
      if (!safeEqual(c.req.header('authorization') ?? '', expected)) {
        c.header('WWW-Authenticate', `Basic realm="${realm}"`);
        throw new ApiError(
          401,
          'link_key_invalid',
          'Basic credentials for the devices list are missing or wrong',
        );
      }
      await next();
    },
    { kind: 'guard', scheme: 'linkKey' },
  );
}
