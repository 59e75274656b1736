import { Hono } from 'hono';
import { isInstaller, isManager, mayEditSite, mayManageSiteAccess } from '../../contracts/access-policy.ts';
import {
  type SitePayload,
  type SiteUpdate,
  siteDetailsSchema,
  siteListQuerySchema,
  sitePageSchema,
  sitePayloadSchema,
  siteSchema,
  siteUpdateSchema,
} from '../../contracts/sites.ts';
import { allowOnly } from '../access/allow-only.ts';
import { requireSiteAccess, requireSiteRight } from '../access/scope.ts';
import { giveAdminsSites, membershipOf } from '../companies/memberships.ts';
import type { ServerContext } from '../context.ts';
import { forbidden } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { toPaging } from '../http/paging.ts';
import { validate } from '../http/validate.ts';
import { toSite } from '../mappers.ts';
import { recountSiteDays } from '../monitoring/telemetry/recount-days.ts';
import { INTEGRATOR_EXAMPLES } from '../openapi/integrator-examples.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { requireDatabaseZone, siteZone, zonesOfDatabase } from '../sites/site-zones.ts';
import { userPageParams } from './list-target.ts';
import { idParams } from './params.ts';
import { siteDetails } from './site-details.ts';
import { listSites } from './site-list.ts';
import { attachOwner, checkOwner, lockSiteOwner, moveOwner } from './site-owner.ts';

function columns(body: SitePayload | SiteUpdate) {
  return {
    name: body.name,
    display_address: body.displayAddress,
    street_number: body.streetNumber,
    street_name: body.streetName,
    postal_code: body.postalCode,
    locality: body.locality,
    state: body.state,
    country: body.country,
    latitude: body.latitude,
    longitude: body.longitude,
    place_id: body.placeId,
  };
}

const siteExample = {
  name: 'Okafor Residence',
  displayAddress: '1600 Barton Springs Rd, Austin, TX 78704, USA',
  streetNumber: '1600',
  streetName: 'Barton Springs Rd',
  postalCode: '78704',
  locality: 'Austin',
  state: 'TX',
  country: 'US',
  latitude: 30.2642,
  longitude: -97.7614,
  placeId: 'ChIJ-example',
  timeZone: 'America/Chicago',
  ownerId: 3,
};

/**
 * The zone a saved site gets: the one named (if the database knows it), else the one it has while
 * its position and country stay, else the zone at its position or of its country, else
 * `TELEMETRY_TIME_ZONE`.
 */
async function zoneToSave(
  ctx: ServerContext,
  body: SitePayload | SiteUpdate,
  current?: { time_zone: string; latitude: number; longitude: number; country: string },
): Promise<string> {
  if (body.timeZone) return requireDatabaseZone(ctx.db, body.timeZone);
  const moved =
    !current ||
    current.latitude !== body.latitude ||
    current.longitude !== body.longitude ||
    current.country !== body.country;
  if (current && !moved) return current.time_zone;
  return siteZone(body, ctx.env.TELEMETRY_TIME_ZONE, await zonesOfDatabase(ctx.db));
}

/** Sites, mounted at `/sites`: create and update. */
export function siteRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.post(
    '/',
    describeRoute({
      summary: 'Create a site',
      tag: 'sites',
      example: siteExample,
      responses: {
        201: { description: 'The site', schema: siteSchema },
        403: { description: 'Owners cannot' },
      },
    }),
    allowOnly(isManager, 'Owners cannot create sites'),
    validate('json', sitePayloadSchema),
    async (c) => {
      const viewer = c.get('principal');
      const body = c.req.valid('json');
      await checkOwner(db, viewer, body.ownerId);
      const timeZone = await zoneToSave(ctx, body);
      // The site, the installer's roles and the owner's role exist together or not at all. It
      // belongs to its maker's company, whose admins see it at once.
      const site = await db.transaction().execute(async (trx) => {
        const membership = await membershipOf(trx, viewer.id);
        const row = await trx
          .insertInto('sites')
          .values({
            ...columns(body),
            time_zone: timeZone,
            owner_id: body.ownerId,
            installer_id: isInstaller(viewer) ? viewer.id : null,
            company_id: membership?.companyId ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (isInstaller(viewer)) {
          await trx
            .insertInto('site_access')
            .values({
              site_id: row.id,
              user_id: viewer.id,
              roles: ['installer', 'configurator'],
              access: true,
            })
            .execute();
        }
        if (body.ownerId !== null) await attachOwner(trx, row.id, body.ownerId);
        if (membership) await giveAdminsSites(trx, membership.companyId, [row.id]);
        return row;
      });
      return c.json(toSite(site), 201);
    },
  );

  app.put(
    '/:id',
    describeRoute({
      summary:
        'Update a site; ownerId left out keeps the owner, null clears it; timeZone left out keeps the zone unless the position or country changed',
      tag: 'sites',
      example: siteExample,
      responses: {
        200: { description: 'The site', schema: siteSchema },
        403: { description: 'Not the site installer, owner or an admin' },
        404: { description: 'No such site' },
      },
    }),
    validate('param', idParams),
    validate('json', siteUpdateSchema),
    async (c) => {
      const viewer = c.get('principal');
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const grant = await requireSiteRight(db, viewer, id, mayEditSite);
      const before = await db
        .selectFrom('sites')
        .select(['time_zone', 'latitude', 'longitude', 'country'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const timeZone = await zoneToSave(ctx, body, before);
      const site = await db.transaction().execute(async (trx) => {
        const currentOwner = await lockSiteOwner(trx, id);
        const ownerId = body.ownerId === undefined ? currentOwner : body.ownerId;
        if (ownerId !== currentOwner) {
          if (!mayManageSiteAccess(viewer, grant))
            throw forbidden('Only the site installer or an admin changes its owner', 'site_role_forbidden');
          await checkOwner(trx, viewer, ownerId);
          await moveOwner(trx, id, currentOwner, ownerId);
        }
        // Read under the row's lock: another update may have changed the zone meanwhile.
        const { time_zone: previous } = await trx
          .selectFrom('sites')
          .select('time_zone')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const updated = await trx
          .updateTable('sites')
          .set({ ...columns(body), time_zone: timeZone, updated_at: new Date() })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        // A day is counted in the site's zone: a new zone counts the kept days again.
        if (timeZone !== previous) await recountSiteDays(trx, id, previous);
        return updated;
      });
      // A new owner changes who has access to the site.
      if (body.ownerId !== undefined) await ctx.monitoring.live.announce({ sites: [id] });
      return c.json(toSite(site));
    },
  );
  return app;
}

/** Sites seen through a user's eyes, mounted at `/fleet`: the two lists and a site's details. */
export function fleetSiteRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  for (const [path, attachedOnly, summary] of [
    ['/sites/all/:userId/:page', false, 'Every site a user sees'],
    ['/site-list/:userId/:page', true, 'The sites a user is attached to'],
  ] as const) {
    app.get(
      path,
      describeRoute({
        summary,
        ...(!attachedOnly && { details: INTEGRATOR_EXAMPLES.listSites }),
        tag: 'sites',
        responses: {
          200: { description: 'A page of sites', schema: sitePageSchema },
          403: { description: 'Not yours' },
        },
      }),
      validate('param', userPageParams),
      validate('query', siteListQuerySchema),
      (c) => {
        const { userId, page } = c.req.valid('param');
        return listSites(ctx, c, {
          userId,
          attachedOnly,
          paging: toPaging({ page, ...c.req.valid('query') }),
        });
      },
    );
  }

  app.get(
    '/sites/:id',
    describeRoute({
      summary: 'A site, the access to it the caller may know of, and its device count',
      tag: 'sites',
      responses: {
        200: { description: 'Site details', schema: siteDetailsSchema },
        403: { description: 'No access' },
        404: { description: 'No such site' },
      },
    }),
    validate('param', idParams),
    async (c) => {
      const { id } = c.req.valid('param');
      const viewer = c.get('principal');
      const grant = await requireSiteAccess(ctx.db, viewer, id);
      return c.json(await siteDetails(ctx.db, id, viewer, mayManageSiteAccess(viewer, grant)));
    },
  );
  return app;
}
