import { Hono } from 'hono';
import { type Kysely, sql } from 'kysely';
import { listQuerySchema } from '../../contracts/page.ts';
import {
  type SitePayload,
  type SiteRole,
  type SiteUpdate,
  siteDetailsSchema,
  sitePageSchema,
  sitePayloadSchema,
  siteSchema,
  siteUpdateSchema,
} from '../../contracts/sites.ts';
import { MANAGERS, requireRole } from '../access/require-role.ts';
import {
  holdsSiteRole,
  requireSiteAccess,
  requireSiteRole,
  requireVisibleUser,
  SITE_EDITORS,
  SITE_MANAGERS,
  type Viewer,
} from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { toPaging } from '../http/paging.ts';
import { validate } from '../http/validate.ts';
import { toSite } from '../mappers.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { userPageParams } from './list-target.ts';
import { idParams } from './params.ts';
import { siteDetails } from './site-details.ts';
import { listSites } from './site-list.ts';

const OWNER: SiteRole = 'owner';

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

/** Give a site's owner the `owner` site role (access on), keeping any roles they already hold. */
async function attachOwner(trx: Kysely<Database>, siteId: number, ownerId: number): Promise<void> {
  await trx
    .insertInto('site_access')
    .values({ site_id: siteId, user_id: ownerId, roles: [OWNER], access: true })
    .onConflict((oc) =>
      oc.columns(['site_id', 'user_id']).doUpdateSet({
        roles: sql<string[]>`case when ${OWNER} = any(site_access.roles) then site_access.roles
          else array_append(site_access.roles, ${OWNER}::text) end`,
      }),
    )
    .execute();
}

/**
 * Take the `owner` site role from a replaced owner. With no role left they no longer see the
 * site, so the access record goes too; other roles they hold keep it.
 */
async function detachOwner(trx: Kysely<Database>, siteId: number, ownerId: number): Promise<void> {
  await trx
    .updateTable('site_access')
    .set({ roles: sql<string[]>`array_remove(roles, ${OWNER}::text)` })
    .where('site_id', '=', siteId)
    .where('user_id', '=', ownerId)
    .execute();
  await trx
    .deleteFrom('site_access')
    .where('site_id', '=', siteId)
    .where('user_id', '=', ownerId)
    .where(sql<boolean>`cardinality(roles) = 0`)
    .execute();
}

/**
 * Check the `ownerId` of a site payload: an owner the caller may see.
 * @throws {ApiError} 400 naming `ownerId`.
 */
async function checkOwner(q: Kysely<Database>, viewer: Viewer, ownerId: number | null): Promise<void> {
  if (ownerId === null) return;
  const owner = await q
    .selectFrom('users')
    .select(['id', 'role'])
    .where('id', '=', ownerId)
    .executeTakeFirst();
  if (owner?.role !== 'owner') throw new ApiError(400, 'invalid_input', 'ownerId: no such owner', 'ownerId');
  await requireVisibleUser(q, viewer, ownerId).catch(() => {
    throw new ApiError(400, 'invalid_input', 'ownerId: that owner is not yours to attach', 'ownerId');
  });
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
  ownerId: 3,
};

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
    requireRole(MANAGERS, 'Owners cannot create sites'),
    validate('json', sitePayloadSchema),
    async (c) => {
      const viewer = c.get('principal');
      const body = c.req.valid('json');
      await checkOwner(db, viewer, body.ownerId);
      // The site, the installer's roles and the owner's role exist together or not at all.
      const site = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('sites')
          .values({
            ...columns(body),
            owner_id: body.ownerId,
            installer_id: viewer.role === 'installer' ? viewer.id : null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (viewer.role === 'installer') {
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
        return row;
      });
      return c.json(toSite(site), 201);
    },
  );

  app.put(
    '/:id',
    describeRoute({
      summary: 'Update a site; ownerId left out keeps the owner, null clears it',
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
      const access = await requireSiteRole(db, viewer, id, SITE_EDITORS);
      const site = await db.transaction().execute(async (trx) => {
        // Locked, so two owner changes of one site cannot both detach the same old owner.
        const current = await trx
          .selectFrom('sites')
          .select('owner_id')
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!current) throw notFound('Site');
        const ownerId = body.ownerId === undefined ? current.owner_id : body.ownerId;
        const ownerChanges = ownerId !== current.owner_id;
        if (ownerChanges) {
          if (!holdsSiteRole(access, SITE_MANAGERS))
            throw forbidden('Only the site installer or an admin changes its owner', 'site_role_forbidden');
          await checkOwner(trx, viewer, ownerId);
        }
        const row = await trx
          .updateTable('sites')
          .set({ ...columns(body), owner_id: ownerId, updated_at: new Date() })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (ownerChanges && current.owner_id !== null) await detachOwner(trx, id, current.owner_id);
        if (ownerId !== null) await attachOwner(trx, id, ownerId);
        return row;
      });
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
        tag: 'sites',
        responses: {
          200: { description: 'A page of sites', schema: sitePageSchema },
          403: { description: 'Not yours' },
        },
      }),
      validate('param', userPageParams),
      validate('query', listQuerySchema),
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
      const access = await requireSiteAccess(ctx.db, viewer, id);
      return c.json(await siteDetails(ctx.db, id, viewer, holdsSiteRole(access, SITE_MANAGERS)));
    },
  );
  return app;
}
