import { Hono } from 'hono';
import { sitePayloadSchema } from '../../contracts/sites.ts';
import { requireSiteAccess, requireSiteRole, requireVisibleUser } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, forbidden } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { readBody, readInput } from '../http/validate.ts';
import { toSite } from '../mappers.ts';
import { idParam } from './params.ts';
import { siteDetails } from './site-details.ts';
import { listSites } from './site-list.ts';

type SiteValues = ReturnType<typeof columns>;

function columns(body: ReturnType<typeof sitePayloadSchema.parse>) {
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
    owner_id: body.ownerId,
  };
}

/** Sites: create, update, lists and details. */
export function siteRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  const checkOwner = async (viewer: AuthVariables['principal'], ownerId: number | null) => {
    if (ownerId === null) return;
    const owner = await db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('id', '=', ownerId)
      .executeTakeFirst();
    if (owner?.role !== 'owner')
      throw new ApiError(400, 'invalid_input', 'ownerId: no such owner', 'ownerId');
    await requireVisibleUser(db, viewer, ownerId).catch(() => {
      throw new ApiError(400, 'invalid_input', 'ownerId: that owner is not yours to attach', 'ownerId');
    });
  };

  const attachOwner = async (siteId: number, values: SiteValues) => {
    if (values.owner_id === null) return;
    await db
      .insertInto('site_access')
      .values({ site_id: siteId, user_id: values.owner_id, roles: ['owner'], access: true })
      .onConflict((oc) => oc.columns(['site_id', 'user_id']).doNothing())
      .execute();
  };

  app.post('/sites', async (c) => {
    const viewer = c.get('principal');
    if (viewer.role === 'owner') throw forbidden('Owners cannot create sites', 'role_forbidden');
    const values = columns(await readBody(c, sitePayloadSchema));
    await checkOwner(viewer, values.owner_id);
    const site = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('sites')
        .values({ ...values, installer_id: viewer.role === 'installer' ? viewer.id : null })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (viewer.role === 'installer') {
        await trx
          .insertInto('site_access')
          .values({ site_id: row.id, user_id: viewer.id, roles: ['installer', 'configurator'], access: true })
          .execute();
      }
      return row;
    });
    await attachOwner(site.id, values);
    return c.json(toSite(site), 201);
  });

  app.put('/sites/:id', async (c) => {
    const viewer = c.get('principal');
    const id = readInput(c.req.param('id'), idParam, 'id');
    await requireSiteRole(db, viewer, id, ['installer', 'owner']);
    const values = columns(await readBody(c, sitePayloadSchema));
    await checkOwner(viewer, values.owner_id);
    const site = await db
      .updateTable('sites')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await attachOwner(id, values);
    return c.json(toSite(site));
  });

  app.get('/fleet/sites/all/:userId/:page', (c) => listSites(ctx, c, false));
  app.get('/fleet/site-list/:userId/:page', (c) => listSites(ctx, c, true));

  app.get('/fleet/sites/:id', async (c) => {
    const id = readInput(c.req.param('id'), idParam, 'id');
    await requireSiteAccess(db, c.get('principal'), id);
    return c.json(await siteDetails(db, id));
  });
  return app;
}
