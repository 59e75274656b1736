import { join } from 'node:path';
import { Hono } from 'hono';
import { isOpenPath, isPublicPath, TOKEN_ISSUERS } from '../../contracts/services.ts';
import type { ServerContext } from '../context.ts';
import { type AuthVariables, requireApiKey, requireBearer } from '../http/guards.ts';
import { openApiRoute } from '../openapi/openapi-document.ts';
import { serviceCommsRoutes } from '../service-comms/service-comms-routes.ts';
import { configAuthRoutes } from './auth-routes.ts';
import { configHistoryRoutes } from './config-history-routes.ts';
import { deviceRoutes } from './device-routes.ts';
import { devicesListRoute } from './devices-list-route.ts';
import { passwordRoutes } from './password-routes.ts';
import { siteAccessRoutes } from './site-access-routes.ts';
import { siteRoutes } from './site-routes.ts';
import { userRoutes } from './user-routes.ts';

/** The configuration service, mounted by the caller at `mount` (`/config` in the one-process server). */
export function createConfigApp(
  ctx: ServerContext,
  publicDir: string,
  mount: string,
): Hono<{ Variables: AuthVariables }> {
  const rel = (path: string) => (path.startsWith(mount) ? path.slice(mount.length) || '/' : path);
  const app = new Hono<{ Variables: AuthVariables }>();
  app.route('/', openApiRoute('config'));
  app.get('/.well-known/jwks.json', (c) => c.json({ keys: [ctx.configKey.publicJwk] }));
  app.route('/', devicesListRoute(ctx.env.LINK_KEY, join(publicDir, 'devices-list.json')));
  // Which paths go without an api-key or a Bearer is decided once in contracts/services.ts.
  app.use(requireApiKey(ctx.env.API_KEY, (path) => isOpenPath(rel(path))));
  app.use(
    requireBearer(
      ctx.configJwks,
      TOKEN_ISSUERS.config,
      (path) => isOpenPath(rel(path)) || isPublicPath(rel(path)),
      ctx.sessions,
    ),
  );
  app.route('/', configAuthRoutes(ctx));
  app.route('/', passwordRoutes(ctx));
  app.route('/', siteRoutes(ctx));
  app.route('/', siteAccessRoutes(ctx));
  app.route('/', deviceRoutes(ctx));
  app.route('/', configHistoryRoutes(ctx));
  app.route('/', serviceCommsRoutes(ctx));
  app.route('/', userRoutes(ctx));
  return app;
}
