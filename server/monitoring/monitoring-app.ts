import { Hono } from 'hono';
import { z } from 'zod';
import {
  configuratorLoginRequestSchema,
  fleetLoginRequestSchema,
  refreshRequestSchema,
} from '../../contracts/auth.ts';
import {
  AUTH_PREFIX,
  MONITORING_OPEN_PATHS,
  normalisePath,
  TOKEN_ISSUERS,
} from '../../contracts/services.ts';
import { verifyAccessTokenClaims } from '../auth/access-tokens.ts';
import { issueRefreshToken, revokeFamilyOf, rotateRefreshToken } from '../auth/refresh-tokens.ts';
import { checkCredentials, loadPrincipal, monitoringAccessToken } from '../auth/sign-in.ts';
import type { ServerContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError } from '../http/errors.ts';
import { type AuthVariables, requireBearer } from '../http/guards.ts';
import { readBody } from '../http/validate.ts';
import { openApiRoute } from '../openapi/openapi-document.ts';

const base64 = z
  .string()
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'password must be base64')
  .transform((value) => Buffer.from(value, 'base64').toString('utf8'));

/**
 * The monitoring service: sign-in with a configuration access token (checked against the
 * configuration service's JWKS), its own refresh rotation, and the older password sign-in.
 */
export function createMonitoringApp(ctx: ServerContext, mount: string): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const rel = (path: string) => (path.startsWith(mount) ? path.slice(mount.length) || '/' : path);
  const isOpen = (path: string) => {
    const p = normalisePath(rel(path));
    return p.startsWith(AUTH_PREFIX) || MONITORING_OPEN_PATHS.includes(p);
  };
  app.route('/', openApiRoute('monitoring'));
  app.use(requireBearer(ctx.monitoringJwks, TOKEN_ISSUERS.monitoring, isOpen, ctx.sessions));

  app.post('/auth/v2/configurator-login', async (c) => {
    const body = await readBody(c, configuratorLoginRequestSchema);
    const verified = await verifyAccessTokenClaims(ctx.configJwks, TOKEN_ISSUERS.config, body.access_token);
    if (!verified)
      throw new ApiError(401, 'token_invalid', 'The configuration access token is invalid or expired');
    const vouched = verified.principal;
    // A configuration token from before a password or e-mail change mints nothing.
    if (!(await ctx.sessions.isCurrent(vouched.id, verified.issuedAt)))
      throw new ApiError(401, 'session_ended', 'This session has ended; sign in again');
    if (vouched.email.toLowerCase() !== body.username.toLowerCase()) {
      throw new ApiError(401, 'username_mismatch', 'username does not match the configuration access token');
    }
    const user = await loadPrincipal(ctx, vouched.id);
    if (!user) throw new ApiError(401, 'token_invalid', 'The user of this token no longer exists');
    const refresh_token = await issueRefreshToken(ctx.db, user.id, 'monitoring', ctx.env.REFRESH_TOKEN_TTL);
    return c.json({ access_token: await monitoringAccessToken(ctx, user), refresh_token });
  });

  app.post('/auth/v2/refresh', async (c) => {
    const body = await readBody(c, refreshRequestSchema);
    const rotated = await rotateRefreshToken(ctx.db, body.refresh_token, 'monitoring', {
      ttlSeconds: ctx.env.REFRESH_TOKEN_TTL,
      graceSeconds: ctx.env.REFRESH_GRACE_SECONDS,
    });
    const user = await loadPrincipal(ctx, rotated.userId);
    if (!user) throw new ApiError(401, 'invalid_refresh_token', 'The refresh token is invalid or expired');
    return c.json({
      access_token: await monitoringAccessToken(ctx, user),
      refresh_token: rotated.refreshToken,
    });
  });

  app.post('/auth/v2/logout', async (c) => {
    const body = await readBody(c, refreshRequestSchema);
    await revokeFamilyOf(ctx.db, body.refresh_token, 'monitoring');
    return c.body(null, 204);
  });

  app.post('/auth/fleet-login', async (c) => {
    const body = await readBody(c, fleetLoginRequestSchema.extend({ password: base64 }));
    const user = await checkCredentials(
      ctx,
      body.username,
      body.password,
      clientAddress(c, ctx.env.TRUST_PROXY),
    );
    return c.json({ accessToken: await monitoringAccessToken(ctx, user) });
  });

  /** Who the monitoring token speaks for: lets a client check its session. */
  app.get('/me', (c) => c.json(c.get('principal')));
  return app;
}
