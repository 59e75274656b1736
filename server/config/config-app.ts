import { join } from 'node:path';
import { Hono } from 'hono';
import type { ServerContext } from '../context.ts';
import { handleError, handleNotFound } from '../http/errors.ts';
import { type AuthVariables, requireApiKey, requireBearer } from '../http/guards.ts';
import { configAuthRoutes } from './auth-routes.ts';
import { configHistoryRoutes } from './config-history-routes.ts';
import { deviceRoutes } from './device-routes.ts';
import { devicesListRoute } from './devices-list-route.ts';
import { passwordRoutes } from './password-routes.ts';
import { siteAccessRoutes } from './site-access-routes.ts';
import { siteRoutes } from './site-routes.ts';
import { userRoutes } from './user-routes.ts';

/** Paths the specification lists as public (no Bearer). */
const PUBLIC = new Set(['/auth', '/users', '/users/password', '/users/password-reset']);
/** Paths with their own credentials or none: no api-key, no Bearer. */
const OPEN = new Set(['/devices-list', '/.well-known/jwks.json']);

/** The configuration service, mounted by the caller at `mount` (`/config` in the one-process server). */
export function createConfigApp(
  ctx: ServerContext,
  publicDir: string,
  mount: string,
): Hono<{ Variables: AuthVariables }> {
  const rel = (path: string) => (path.startsWith(mount) ? path.slice(mount.length) || '/' : path);
  const app = new Hono<{ Variables: AuthVariables }>();
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.get('/.well-known/jwks.json', (c) => c.json({ keys: [ctx.configKey.publicJwk] }));
  app.route('/', devicesListRoute(ctx.env.LINK_KEY, join(publicDir, 'devices-list.json')));
  app.use(requireApiKey(ctx.env.API_KEY, (path) => OPEN.has(rel(path))));
  app.use(
    requireBearer(
      ctx.configJwks,
      'fleet-config',
      (path) => OPEN.has(rel(path)) || PUBLIC.has(rel(path)) || rel(path).startsWith('/auth/'),
    ),
  );
  app.route('/', configAuthRoutes(ctx));
  app.route('/', passwordRoutes(ctx));
  app.route('/', siteRoutes(ctx));
  app.route('/', siteAccessRoutes(ctx));
  app.route('/', deviceRoutes(ctx));
  app.route('/', configHistoryRoutes(ctx));
  app.route('/', userRoutes(ctx));
  return app;
}
