import { Hono } from 'hono';
import { principalSchema } from '../../contracts/auth.ts';
import { TOKEN_ISSUERS } from '../../contracts/services.ts';
import { sessionRoutes } from '../auth/session-routes.ts';
import type { ServerContext } from '../context.ts';
import { apiKeyGateOf } from '../http/api-key-guard.ts';
import { handleNotFound } from '../http/errors.ts';
import { type AuthVariables, requireBearer } from '../http/guards.ts';
import { openApiRoute } from '../openapi/openapi-document.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { alarmRoutes } from './alarm-routes.ts';
import { deviceRoutes } from './device-routes.ts';
import { fleetLiveRoute } from './fleet-live-route.ts';
import { overviewRoute } from './overview-route.ts';
import { monitoringSignInRoutes } from './sign-in-routes.ts';
import { siteRoutes } from './site-routes.ts';
import { telemetryCountsRoute } from './telemetry-counts-route.ts';

/**
 * The monitoring service, mounted by the caller (at `/monitoring` in the one-process server): its
 * document and sign-in calls are open; everything registered after them needs its own Bearer
 * token (the overview, devices' telemetry and live streams, sites' series, alarms, the fleet stream). It never asks
 * for the `api-key`.
 */
export function createMonitoringApp(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  app.route('/openapi.json', openApiRoute('monitoring', app, ctx.env.API_KEY_RATE_LIMIT));
  app.route('/auth', monitoringSignInRoutes(ctx));
  app.route('/auth', sessionRoutes(ctx, 'monitoring'));
  app.all('/auth/*', handleNotFound);

  app.use(
    requireBearer(
      ctx.monitoringJwks,
      TOKEN_ISSUERS.monitoring,
      ctx.sessions,
      ctx.env.COMPANY_DOMAIN,
      apiKeyGateOf(ctx),
      ctx.now,
    ),
  );
  app.get(
    '/me',
    describeRoute({
      summary: 'Who the monitoring access token speaks for',
      tag: 'sign-in',
      responses: { 200: { description: 'The signed-in user', schema: principalSchema } },
    }),
    // Lets a client check its session.
    (c) => c.json(c.get('principal')),
  );
  app.route('/', overviewRoute(ctx));
  app.route('/', deviceRoutes(ctx));
  app.route('/', siteRoutes(ctx));
  app.route('/', alarmRoutes(ctx));
  app.route('/', fleetLiveRoute(ctx));
  app.route('/', telemetryCountsRoute(ctx));
  return app;
}
