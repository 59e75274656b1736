import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { type LoginRequest, loginRequestSchema, tokenPairSchema } from '../../contracts/auth.ts';
import { issueRefreshToken } from '../auth/refresh-tokens.ts';
import { checkCredentials, configAccessToken } from '../auth/sign-in.ts';
import type { ServerContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import { validate } from '../http/validate.ts';
import { describeRoute, type RouteDescription } from '../openapi/route-notes.ts';

const signIn = (summary: string): RouteDescription => ({
  summary,
  tag: 'sign-in',
  example: { main_email: 'admin@fleet.example', password: 'FleetAdmin#2026' },
  responses: {
    200: { description: 'Token pair', schema: tokenPairSchema },
    401: { description: 'E-mail or password is wrong' },
    429: { description: 'Rate limited' },
  },
});

/**
 * Configuration service sign-in, mounted at `/auth`: `POST /auth/v2/login` and the older
 * `POST /auth`, alike. Refresh and logout are the sessions sub-app.
 */
export function configAuthRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  const login = async (body: LoginRequest, address: string) => {
    const user = await checkCredentials(ctx, body.main_email, body.password, address);
    const session = randomUUID();
    const refresh_token = await issueRefreshToken(
      ctx.db,
      user.id,
      'config',
      ctx.env.REFRESH_TOKEN_TTL,
      ctx.now,
      session,
    );
    return { access_token: await configAccessToken(ctx, user, session), refresh_token };
  };
  for (const [path, summary] of [
    ['/v2/login', 'Sign in'],
    ['/', 'Sign in (older call)'],
  ] as const) {
    app.post(path, describeRoute(signIn(summary)), validate('json', loginRequestSchema), async (c) =>
      c.json(await login(c.req.valid('json'), clientAddress(c, ctx.env.TRUST_PROXY))),
    );
  }
  return app;
}
