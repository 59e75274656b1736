import { type Context, Hono } from 'hono';
import { loginRequestSchema, refreshRequestSchema } from '../../contracts/auth.ts';
import { issueRefreshToken, revokeFamilyOf, rotateRefreshToken } from '../auth/refresh-tokens.ts';
import { checkCredentials, configAccessToken, loadPrincipal } from '../auth/sign-in.ts';
import type { ServerContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError } from '../http/errors.ts';
import { readBody } from '../http/validate.ts';

/**
 * Configuration service sign-in: `POST /auth/v2/login`, `POST /auth/v2/refresh`,
 * `POST /auth/v2/logout` and the older `POST /auth`.
 */
export function configAuthRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  const login = async (c: Context) => {
    const body = await readBody(c, loginRequestSchema);
    const user = await checkCredentials(
      ctx,
      body.main_email,
      body.password,
      clientAddress(c, ctx.env.TRUST_PROXY),
    );
    const refresh_token = await issueRefreshToken(ctx.db, user.id, 'config', ctx.env.REFRESH_TOKEN_TTL);
    return c.json({ access_token: await configAccessToken(ctx, user), refresh_token });
  };
  app.post('/auth/v2/login', login);
  app.post('/auth', login);
  app.post('/auth/v2/refresh', async (c) => {
    const body = await readBody(c, refreshRequestSchema);
    const rotated = await rotateRefreshToken(ctx.db, body.refresh_token, 'config', {
      ttlSeconds: ctx.env.REFRESH_TOKEN_TTL,
      graceSeconds: ctx.env.REFRESH_GRACE_SECONDS,
    });
    const user = await loadPrincipal(ctx, rotated.userId);
    if (!user) throw new ApiError(401, 'invalid_refresh_token', 'The refresh token is invalid or expired');
    return c.json({ access_token: await configAccessToken(ctx, user), refresh_token: rotated.refreshToken });
  });
  app.post('/auth/v2/logout', async (c) => {
    const body = await readBody(c, refreshRequestSchema);
    await revokeFamilyOf(ctx.db, body.refresh_token, 'config');
    return c.body(null, 204);
  });
  return app;
}
