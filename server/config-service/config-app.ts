import { join } from 'node:path';
import { Hono } from 'hono';
import { z } from 'zod';
import { TOKEN_ISSUERS } from '../../contracts/services.ts';
import { sessionRoutes } from '../auth/session-routes.ts';
import { claimRoutes } from '../commissioning/claim-routes.ts';
import { installRoutes } from '../commissioning/install-routes.ts';
import { productCatalogueIn } from '../commissioning/product-catalogue.ts';
import { provisioningRoutes } from '../commissioning/provisioning-routes.ts';
import { reportRoutes } from '../commissioning/report-routes.ts';
import { siteArchiveRoutes } from '../commissioning/site-archive-routes.ts';
import { templateRoutes } from '../commissioning/template-routes.ts';
import { companyRoutes, invitationRoutes } from '../companies/company-routes.ts';
import { handoverSiteRoutes } from '../companies/handovers.ts';
import type { ServerContext } from '../context.ts';
import { firmwareRoutes } from '../firmware/firmware-routes.ts';
import { rolloutRoutes } from '../firmware/rollout-routes.ts';
import { apiKeyGateOf } from '../http/api-key-guard.ts';
import { handleNotFound } from '../http/errors.ts';
import { type AuthVariables, requireApiKey, requireBearer } from '../http/guards.ts';
import { openApiRoute } from '../openapi/openapi-document.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { catalogueIn } from '../service-comms/catalogue-commands.ts';
import { serviceCommsRoutes } from '../service-comms/service-comms-routes.ts';
import { webhookRoutes } from '../webhooks/webhook-routes.ts';
import { apiKeyRoutes } from './api-key-routes.ts';
import { configAuthRoutes } from './auth-routes.ts';
import { catalogueRoute } from './catalogue-route.ts';
import { configHistoryRoutes } from './config-history-routes.ts';
import { fleetDeviceRoutes, modelDeviceRoutes } from './device-routes.ts';
import { fleetUserRoutes } from './fleet-user-routes.ts';
import { ownAccountRoutes } from './own-account-routes.ts';
import { passwordRoutes } from './password-routes.ts';
import { siteAccessRoutes } from './site-access-routes.ts';
import { fleetSiteRoutes, siteRoutes } from './site-routes.ts';
import { userRoutes } from './user-routes.ts';

const jwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

/**
 * The configuration service, mounted by the caller (at `/config` in the one-process server). Who
 * may call what is decided by where a route is registered: the open documents first, then the
 * devices-online calls behind a Bearer token only (specification §7: no `api-key` on paths that
 * contain `/service-comms`), then the `api-key` for everything else, the public sign-in and
 * password calls, and the Bearer token for the rest.
 */
export function createConfigApp(ctx: ServerContext, publicDir: string): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const apiKeys = apiKeyGateOf(ctx);
  const signedIn = requireBearer(
    ctx.configJwks,
    TOKEN_ISSUERS.config,
    ctx.sessions,
    ctx.env.COMPANY_DOMAIN,
    apiKeys,
    ctx.now,
  );

  app.route('/openapi.json', openApiRoute('config', app, ctx.env.API_KEY_RATE_LIMIT));
  app.get(
    '/.well-known/jwks.json',
    describeRoute({
      summary: 'Public key set of configuration access tokens',
      tag: 'sign-in',
      responses: { 200: { description: 'The key set', schema: jwksSchema } },
    }),
    (c) => c.json({ keys: [ctx.configKey.publicJwk] }),
  );
  app.route('/devices-list', catalogueRoute(ctx.env.LINK_KEY, join(publicDir, 'devices-list.json')));

  app.use('/service-comms/*', signedIn);
  app.route('/', serviceCommsRoutes(ctx, catalogueIn(publicDir)));

  app.use(requireApiKey(ctx.env.API_KEY, apiKeys));
  app.route('/auth', configAuthRoutes(ctx));
  app.route('/auth', sessionRoutes(ctx, 'config'));
  // An invitation link's holder reads it and makes their account before they have a token.
  app.route('/auth/invitations', invitationRoutes(ctx));
  // The whole sign-in prefix is public: an unknown call there is a 404, not a request for a token.
  app.all('/auth/*', handleNotFound);
  app.route('/users', passwordRoutes(ctx));

  app.use(signedIn);
  app.route('/sites', siteRoutes(ctx));
  app.route('/users', ownAccountRoutes(ctx));
  app.route('/users', userRoutes(ctx));
  app.route('/install', modelDeviceRoutes(ctx));
  app.route('/fleet', fleetSiteRoutes(ctx));
  app.route('/fleet', fleetDeviceRoutes(ctx));
  app.route('/fleet', fleetUserRoutes(ctx));
  app.route('/fleet/site-access', siteAccessRoutes(ctx));
  app.route('/', configHistoryRoutes(ctx));
  const products = productCatalogueIn(publicDir);
  app.route('/fleet', installRoutes(ctx, products));
  app.route('/fleet', claimRoutes(ctx, products));
  app.route('/fleet', provisioningRoutes(ctx));
  app.route('/', siteArchiveRoutes(ctx));
  app.route('/fleet/config-templates', templateRoutes(ctx, products));
  app.route('/fleet', reportRoutes(ctx, products));
  app.route('/fleet/api-keys', apiKeyRoutes(ctx));
  app.route('/fleet/webhooks', webhookRoutes(ctx));
  app.route('/fleet', firmwareRoutes(ctx, publicDir));
  app.route('/fleet/firmware-rollouts', rolloutRoutes(ctx));
  app.route('/companies', companyRoutes(ctx));
  app.route('/sites', handoverSiteRoutes(ctx));
  return app;
}
