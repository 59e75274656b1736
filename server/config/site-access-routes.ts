import { Hono } from 'hono';
import { changeRolesRequestSchema, setAccessRequestSchema } from '../../contracts/sites.ts';
import { requireSiteRole, requireVisibleUser, SITE_MANAGERS } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import type { AuthVariables } from '../http/guards.ts';
import { readBody } from '../http/validate.ts';

/**
 * `PUT /fleet/site-access/change-roles` and `PUT /fleet/site-access/set-access`: an admin, or a user
 * holding the site's `installer` role, sets another user's roles or access flag on that site.
 */
export function siteAccessRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.put('/fleet/site-access/change-roles', async (c) => {
    const caller = c.get('principal');
    const body = await readBody(c, changeRolesRequestSchema);
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
  });

  app.put('/fleet/site-access/set-access', async (c) => {
    const caller = c.get('principal');
    const body = await readBody(c, setAccessRequestSchema);
    await requireSiteRole(db, caller, body.siteId, SITE_MANAGERS);
    await requireVisibleUser(db, caller, body.userId);
    const row = await db
      .insertInto('site_access')
      .values({ site_id: body.siteId, user_id: body.userId, roles: [], access: body.access })
      .onConflict((oc) => oc.columns(['site_id', 'user_id']).doUpdateSet({ access: body.access }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return c.json({ siteId: row.site_id, userId: row.user_id, roles: row.roles, access: row.access });
  });
  return app;
}
