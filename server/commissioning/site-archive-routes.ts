import { Hono } from 'hono';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { type Actor, actorOf, isStaff, mayJoinCompany } from '../../contracts/access-policy.ts';
import { idParamSchema } from '../../contracts/ids.ts';
import { archivedSiteListSchema, SITE_HAS_DEVICES } from '../../contracts/installs.ts';
import { siteSchema } from '../../contracts/sites.ts';
import { requireInstallSite } from '../access/install-access.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { toSite } from '../mappers.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { siteZone, zonesOfDatabase } from '../sites/site-zones.ts';
import { recordAudit } from './install-audit.ts';

/** What a site's zone is suggested from. */
type ZoneInputs = { latitude: number; longitude: number; country: string };

const idParams = z.object({ id: idParamSchema });

/** @throws {ApiError} 403 `staff_only` for anyone but company staff. */
function requireStaff(principal: Actor): void {
  if (!isStaff(principal)) throw forbidden('Only company staff see and restore archived sites', 'staff_only');
}

/** The columns a table has now: a row archived under an older schema is restored into these. */
async function columnsOf(db: Kysely<Database>, table: string): Promise<Set<string>> {
  const result = await sql<{ column_name: string }>`
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table}`.execute(db);
  return new Set(result.rows.map((row) => row.column_name));
}

/** A stored row cut to the columns the table has now. */
function fitted(row: Record<string, unknown>, columns: Set<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([column]) => columns.has(column)));
}

/**
 * Archiving sites: `DELETE /sites/{id}` moves a site without devices (and who had access to it)
 * out of every list and count into `archived_sites`; company staff list archived sites and
 * restore one, with its id and access, as it was.
 */
export function siteArchiveRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.delete(
    '/sites/:id',
    describeRoute({
      summary: 'Archive a site that has no devices; company staff can restore it',
      tag: 'sites',
      responses: {
        204: { description: 'Archived' },
        403: { description: 'The caller sees the site without the installer role' },
        404: { description: 'No such site, or one the caller cannot see' },
        409: { description: 'The site still has devices (site_has_devices, saying how many)' },
      },
    }),
    validate('param', idParams),
    async (c) => {
      const principal = c.get('principal');
      const { id } = c.req.valid('param');
      await requireInstallSite(db, principal, id);
      await db.transaction().execute(async (trx) => {
        // Locked first: a device being put on the site waits, then finds the site gone.
        const site = await trx
          .selectFrom('sites')
          .selectAll()
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!site) throw notFound('Site');
        const count = await trx
          .selectFrom('devices')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('site_id', '=', id)
          .executeTakeFirstOrThrow();
        const devices = Number(count.n);
        if (devices > 0)
          throw new ApiError(
            409,
            SITE_HAS_DEVICES,
            `${site.name} still has ${devices} device${devices === 1 ? '' : 's'}: move them to another site or take them off first`,
          );
        const access = await trx.selectFrom('site_access').selectAll().where('site_id', '=', id).execute();
        await trx
          .insertInto('archived_sites')
          .values({
            id,
            site: JSON.stringify(site) as unknown as Record<string, unknown>,
            access: JSON.stringify(access) as unknown as Record<string, unknown>[],
            archived_by: principal.id,
            archived_by_email: principal.email,
          })
          .execute();
        await trx.deleteFrom('sites').where('id', '=', id).execute();
        await recordAudit(trx, principal, { action: 'site_archived', site: { id, name: site.name } });
      });
      return c.body(null, 204);
    },
  );

  app.get(
    '/fleet/archived-sites',
    describeRoute({
      summary: 'Archived sites, newest first (company staff)',
      tag: 'sites',
      responses: {
        200: { description: 'The archived sites', schema: archivedSiteListSchema },
        403: { description: 'Not company staff' },
      },
    }),
    async (c) => {
      requireStaff(c.get('principal'));
      const rows = await db
        .selectFrom('archived_sites')
        .selectAll()
        .orderBy('archived_at', 'desc')
        .limit(500)
        .execute();
      const items = rows.map((row) => ({
        ...toSite(row.site as Parameters<typeof toSite>[0]),
        archivedAt: new Date(row.archived_at).toISOString(),
        archivedBy: row.archived_by_email,
      }));
      return c.json({ items });
    },
  );

  app.post(
    '/fleet/archived-sites/:id/restore',
    describeRoute({
      summary: 'Restore an archived site with its id and access (company staff)',
      tag: 'sites',
      responses: {
        200: { description: 'The site', schema: siteSchema },
        403: { description: 'Not company staff' },
        404: { description: 'No such archived site' },
      },
    }),
    validate('param', idParams),
    async (c) => {
      const principal = c.get('principal');
      requireStaff(principal);
      const { id } = c.req.valid('param');
      const site = await db.transaction().execute(async (trx) => {
        const archived = await trx
          .deleteFrom('archived_sites')
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        if (!archived) throw notFound('Archived site');
        // Users deleted since the site was archived are left out.
        const named = [
          archived.site.owner_id,
          archived.site.installer_id,
          ...archived.access.map((a) => a.user_id),
        ].filter((userId): userId is number => typeof userId === 'number');
        const users = new Set(
          named.length === 0
            ? []
            : (await trx.selectFrom('users').select('id').where('id', 'in', named).execute()).map(
                (user) => user.id,
              ),
        );
        const kept = (userId: unknown) => (typeof userId === 'number' && users.has(userId) ? userId : null);
        const site = archived.site as Record<string, unknown> & ZoneInputs;
        const row = {
          ...fitted(site, await columnsOf(trx, 'sites')),
          // A site archived before sites had time zones gets one as the migration gave the rest.
          time_zone:
            typeof site.time_zone === 'string'
              ? site.time_zone
              : siteZone(site, ctx.env.TELEMETRY_TIME_ZONE, await zonesOfDatabase(trx)),
          owner_id: kept(archived.site.owner_id),
          installer_id: kept(archived.site.installer_id),
          device_count: 0,
        };
        const restored = await trx
          .insertInto('sites')
          .values(row as never)
          .returningAll()
          .executeTakeFirstOrThrow();
        const accessColumns = await columnsOf(trx, 'site_access');
        // Someone who has since left the site's company (or joined another) does not get it back;
        // people outside companies (its owner) do.
        const companyId = typeof site.company_id === 'number' ? site.company_id : null;
        const people = await trx
          .selectFrom('users')
          .leftJoin('company_members', 'company_members.user_id', 'users.id')
          .select(['users.id', 'users.role', 'users.main_email', 'company_members.company_id'])
          .where('users.id', 'in', [0, ...users])
          .execute();
        const returning = new Set(
          people
            .filter(
              (p) =>
                companyId === null ||
                p.company_id === companyId ||
                !mayJoinCompany(actorOf({ ...p, email: p.main_email }, ctx.env.COMPANY_DOMAIN)),
            )
            .map((p) => p.id),
        );
        const stillOfCompany = (userId: unknown) => typeof userId === 'number' && returning.has(userId);
        const access = archived.access
          .filter((entry) => kept(entry.user_id) !== null && stillOfCompany(entry.user_id))
          .map((entry) => fitted(entry, accessColumns));
        if (access.length > 0)
          await trx
            .insertInto('site_access')
            .values(access as never)
            .execute();
        await recordAudit(trx, principal, { action: 'site_restored', site: { id, name: restored.name } });
        return restored;
      });
      return c.json(toSite(site));
    },
  );
  return app;
}
