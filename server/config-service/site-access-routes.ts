import { Hono } from 'hono';
import { mayManageSiteAccess } from '../../contracts/access-policy.ts';
import { changeRolesRequestSchema, setAccessRequestSchema, siteAccessSchema } from '../../contracts/sites.ts';
import { requireSiteRight, requireVisibleUser } from '../access/scope.ts';
import { refuseSelfLockout } from '../access/self-lockout.ts';
import type { ServerContext } from '../context.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute, type RouteDescription } from '../openapi/route-notes.ts';
import { checkOwner, lockSiteOwner, moveOwner, OWNER } from './site-owner.ts';

const accessChange = (summary: string, example: Record<string, unknown>): RouteDescription => ({
  summary,
  tag: 'site access',
  example,
  responses: {
    200: { description: 'The access record', schema: siteAccessSchema },
    403: { description: 'Not an admin or the site installer, or the user is not theirs to see' },
    404: { description: 'No such site or user' },
    409: {
      description: 'The change would take from the caller their own right to manage the site (self_lockout)',
    },
  },
});

/**
 * Mounted at `/fleet/site-access`: `PUT change-roles` and `PUT set-access`. An admin, or a user
 * holding the site's `installer` role, sets a user's roles or access flag on that site; nobody but
 * an admin takes that right from themself (409 `self_lockout`). The site role `owner` is the
 * site's owner: giving it to someone makes them the owner (the previous one loses it), and taking
 * it from the owner leaves the site without one.
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
      await requireSiteRight(db, caller, body.siteId, mayManageSiteAccess);
      await requireVisibleUser(db, caller, body.userId);
      const roles = [...new Set(body.roles)];
      refuseSelfLockout(caller, { userId: body.userId, roles });
      const row = await db.transaction().execute(async (trx) => {
        const currentOwner = await lockSiteOwner(trx, body.siteId);
        if (roles.includes(OWNER) && body.userId !== currentOwner) {
          await checkOwner(trx, caller, body.userId, 'roles');
          await moveOwner(trx, body.siteId, currentOwner, body.userId);
        } else if (!roles.includes(OWNER) && body.userId === currentOwner) {
          // The record stays (with the roles given, maybe none): the user is still attached.
          await trx
            .updateTable('sites')
            .set({ owner_id: null, updated_at: new Date() })
            .where('id', '=', body.siteId)
            .execute();
        }
        return trx
          .insertInto('site_access')
          .values({ site_id: body.siteId, user_id: body.userId, roles, access: true })
          .onConflict((oc) => oc.columns(['site_id', 'user_id']).doUpdateSet({ roles, by_company: false }))
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      await ctx.monitoring.live.announce({ sites: [body.siteId] });
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
      await requireSiteRight(db, caller, body.siteId, mayManageSiteAccess);
      await requireVisibleUser(db, caller, body.userId);
      refuseSelfLockout(caller, { userId: body.userId, access: body.access });
      const row = await db
        .insertInto('site_access')
        .values({ site_id: body.siteId, user_id: body.userId, roles: [], access: body.access })
        .onConflict((oc) => oc.columns(['site_id', 'user_id']).doUpdateSet({ access: body.access }))
        .returningAll()
        .executeTakeFirstOrThrow();
      await ctx.monitoring.live.announce({ sites: [body.siteId] });
      return c.json({ siteId: row.site_id, userId: row.user_id, roles: row.roles, access: row.access });
    },
  );
  return app;
}
