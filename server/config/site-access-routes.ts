import { Hono } from 'hono';
import { changeRolesRequestSchema, setAccessRequestSchema, siteAccessSchema } from '../../contracts/sites.ts';
import { requireSiteRole, requireVisibleUser, SITE_MANAGERS } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute, type RouteDescription } from '../openapi/route-notes.ts';

const accessChange = (summary: string, example: Record<string, unknown>): RouteDescription => ({
  summary,
  tag: 'site access',
  example,
  responses: {
    200: { description: 'The access record', schema: siteAccessSchema },
    403: { description: 'Not an admin or the site installer, or the user is not theirs to see' },
    404: { description: 'No such site or user' },
  },
});

/**
 * Mounted at `/fleet/site-access`: `PUT change-roles` and `PUT set-access`. An admin, or a user
 * holding the site's `installer` role, sets another user's roles or access flag on that site.
 */
export function siteAccessRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.put(
    '/change-roles',
    describeRoute(
      accessChange("Set a user's roles on a site", { siteId: 1, userId: 3, roles: ['owner', 'viewer'] }),
    ),
    validate('json', changeRolesRequestSchema),
    async (c) => {
      const caller = c.get('principal');
      const body = c.req.valid('json');
      await requireSiteRole(db, caller, body.siteId, SITE_MANAGERS);
      await requireVisibleUser(db, caller, body.userId);
      const roles = [...new Set(body.roles)];
      const row = await db
        .insertInto('site_access')
        .values({ site_id: body.siteId, user_id: body.userId, roles, access: true })
        .onConflict((oc) => oc.columns(['site_id', 'user_id']).doUpdateSet({ roles }))
        .returningAll()
        .executeTakeFirstOrThrow();
      return c.json({ siteId: row.site_id, userId: row.user_id, roles: row.roles, access: row.access });
    },
  );

  app.put(
    '/set-access',
    describeRoute(
      accessChange("Switch a user's access to a site on or off", { siteId: 1, userId: 3, access: true }),
    ),
    validate('json', setAccessRequestSchema),
    async (c) => {
      const caller = c.get('principal');
      const body = c.req.valid('json');
      await requireSiteRole(db, caller, body.siteId, SITE_MANAGERS);
      await requireVisibleUser(db, caller, body.userId);
      const row = await db
        .insertInto('site_access')
        .values({ site_id: body.siteId, user_id: body.userId, roles: [], access: body.access })
        .onConflict((oc) => oc.columns(['site_id', 'user_id']).doUpdateSet({ access: body.access }))
        .returningAll()
        .executeTakeFirstOrThrow();
      return c.json({ siteId: row.site_id, userId: row.user_id, roles: row.roles, access: row.access });
    },
  );
  return app;
}
