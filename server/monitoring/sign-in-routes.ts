import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  configuratorLoginRequestSchema,
  fleetLoginRequestSchema,
  legacyTokenSchema,
  tokenPairSchema,
} from '../../contracts/auth.ts';
import { TOKEN_ISSUERS } from '../../contracts/services.ts';
import { verifyAccessTokenClaims } from '../auth/access-tokens.ts';
import { issueRefreshToken } from '../auth/refresh-tokens.ts';
import { checkCredentials, loadPrincipal, monitoringAccessToken } from '../auth/sign-in.ts';
import type { ServerContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';

const base64 = z
  .string()
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'password must be base64')
  .transform((value) => Buffer.from(value, 'base64').toString('utf8'));

/**
 * Monitoring service sign-in, mounted at `/auth`: with a configuration access token (checked
 * against the configuration service's JWKS), and the older password sign-in. Refresh and logout
 * are the sessions sub-app.
 */
export function monitoringSignInRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  app.post(
    '/v2/configurator-login',
    describeRoute({
      summary: 'Sign in with a configuration access token of the same user',
      tag: 'sign-in',
      example: { username: 'admin@fleet.example', access_token: 'a-configuration-access-token' },
      responses: {
        200: { description: 'Token pair', schema: tokenPairSchema },
        401: { description: 'The configuration access token is invalid, expired or of another user' },
      },
    }),
    validate('json', configuratorLoginRequestSchema),
    async (c) => {
      const body = c.req.valid('json');
      const verified = await verifyAccessTokenClaims(
        ctx.configJwks,
        TOKEN_ISSUERS.config,
        body.access_token,
        ctx.now,
      );
      if (!verified)
        throw new ApiError(401, 'token_invalid', 'The configuration access token is invalid or expired');
      const vouched = verified.principal;
      // A configuration token from before a password or e-mail change, or of a sign-in that
      // was signed out, mints nothing.
      if (!(await ctx.sessions.isCurrent(vouched.id, verified.issuedAt, verified.sessionId)))
        throw new ApiError(401, 'session_ended', 'This session has ended; sign in again');
      if (vouched.email.toLowerCase() !== body.username.toLowerCase()) {
        throw new ApiError(
          401,
          'username_mismatch',
          'username does not match the configuration access token',
        );
      }
      const user = await loadPrincipal(ctx, vouched.id);
      if (!user) throw new ApiError(401, 'token_invalid', 'The user of this token no longer exists');
      const session = randomUUID();
      const refresh_token = await issueRefreshToken(
        ctx.db,
        user.id,
        'monitoring',
        ctx.env.REFRESH_TOKEN_TTL,
        ctx.now,
        session,
      );
      return c.json({ access_token: await monitoringAccessToken(ctx, user, session), refresh_token });
    },
  );

  app.post(
    '/fleet-login',
    describeRoute({
      summary: 'Sign in with a base64-encoded password (older call)',
      tag: 'sign-in',
      example: { username: 'admin@fleet.example', password: 'RmxlZXRBZG1pbiMyMDI2' },
      responses: {
        200: { description: 'Access token', schema: legacyTokenSchema },
        401: { description: 'E-mail or password is wrong' },
        429: { description: 'Rate limited' },
      },
    }),
    validate('json', fleetLoginRequestSchema.extend({ password: base64 })),
    async (c) => {
      const body = c.req.valid('json');
      const address = clientAddress(c, ctx.env.TRUST_PROXY);
      const user = await checkCredentials(ctx, body.username, body.password, address);
      return c.json({ accessToken: await monitoringAccessToken(ctx, user) });
    },
  );
  return app;
}
