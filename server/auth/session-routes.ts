import { Hono } from 'hono';
import { refreshRequestSchema, tokenPairSchema } from '../../contracts/auth.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { rotateRefreshToken, type TokenService } from './refresh-tokens.ts';
import { configAccessToken, loadPrincipal, monitoringAccessToken } from './sign-in.ts';
import { signOut } from './sign-out.ts';

const ACCESS_TOKEN = { config: configAccessToken, monitoring: monitoringAccessToken };

const refreshExample = { refresh_token: 'an-opaque-refresh-token' };

/**
 * `POST /v2/refresh` and `POST /v2/logout`, mounted under `/auth` by both services: the same calls,
 * each service rotating and revoking only its own refresh tokens and minting its own access tokens.
 */
export function sessionRoutes(ctx: ServerContext, service: TokenService): Hono {
  const app = new Hono();
  app.post(
    '/v2/refresh',
    describeRoute({
      summary: 'Rotate a refresh token',
      tag: 'sign-in',
      example: refreshExample,
      responses: {
        200: { description: 'New token pair', schema: tokenPairSchema },
        401: { description: 'The refresh token is invalid, expired or was used already' },
      },
    }),
    validate('json', refreshRequestSchema),
    async (c) => {
      const rotated = await rotateRefreshToken(ctx.db, c.req.valid('json').refresh_token, service, {
        ttlSeconds: ctx.env.REFRESH_TOKEN_TTL,
        graceSeconds: ctx.env.REFRESH_GRACE_SECONDS,
        now: ctx.now,
        onRevoked: (userId) => ctx.sessions.onEnded(userId),
      });
      const user = await loadPrincipal(ctx, rotated.userId);
      if (!user) throw new ApiError(401, 'invalid_refresh_token', 'The refresh token is invalid or expired');
      return c.json({
        access_token: await ACCESS_TOKEN[service](ctx, user, rotated.familyId),
        refresh_token: rotated.refreshToken,
      });
    },
  );
  app.post(
    '/v2/logout',
    describeRoute({
      summary: "Sign out: revoke the refresh token's family on this service",
      limits: ['logoutPerUser', 'logoutPerAddress'],
      tag: 'sign-in',
      example: refreshExample,
      responses: {
        204: {
          description:
            "Signed out: the sign-in's refresh and access tokens stop working (also answered for a token that was already spent or unknown)",
        },
        429: { description: 'Too many logouts from this address or for this user' },
      },
    }),
    validate('json', refreshRequestSchema),
    async (c) => {
      await signOut(ctx, c, c.req.valid('json').refresh_token, service);
      return c.body(null, 204);
    },
  );
  return app;
}
