import { Hono } from 'hono';
import { type Kysely, sql } from 'kysely';
import { mayHandOverSite, mayRunCompany, mayTakeOverSites } from '../../contracts/access-policy.ts';
import {
  companyItemParamSchema,
  handoverRequestSchema,
  type SiteHandover,
  siteHandoverSchema,
} from '../../contracts/companies.ts';
import { requireSiteRight } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { publicAppUrl } from '../env.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { giveAdminsSites, membershipOf } from './memberships.ts';

/**
 * Handing a site over (migration 20): its owner (or someone who sees everything) offers the site
 * to another installer company, named by the address of one of its members; that company's admins
 * accept or decline. Accepted, in one transaction: the site is the new company's, everyone of the
 * old company loses access to it (the owner and anyone outside the company keep theirs), the new
 * company's admins get it, and the site's installations end and begin again for the new holder,
 * so its past stays, marked with who held it (`installations.company_id`), and the new company
 * starts with an empty one.
 */

/** Open handovers offered to a company, for its admins. */
export async function handoversTo(db: Kysely<Database>, companyId: number): Promise<SiteHandover[]> {
  const rows = await db
    .selectFrom('site_handovers as h')
    .innerJoin('sites', 'sites.id', 'h.site_id')
    .innerJoin('companies as to', 'to.id', 'h.to_company_id')
    .leftJoin('companies as from', 'from.id', 'h.from_company_id')
    .leftJoin('users', 'users.id', 'h.requested_by')
    .select([
      'h.id',
      'h.site_id',
      'h.requested_at',
      'sites.name as site_name',
      'sites.display_address',
      'to.name as to_name',
      'from.name as from_name',
      'users.display_name as requested_by',
    ])
    .where('h.to_company_id', '=', companyId)
    .where('h.outcome', 'is', null)
    .orderBy('h.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    siteId: row.site_id,
    siteName: row.site_name,
    siteAddress: row.display_address,
    fromCompany: row.from_name ?? null,
    toCompany: row.to_name,
    requestedBy: row.requested_by ?? null,
    requestedAt: new Date(row.requested_at).toISOString(),
  }));
}

/**
 * Accept an open handover offered to the company: the site changes hands. Answers the site id.
 * @throws {ApiError} 404 when there is no such open handover to the company.
 */
export async function acceptHandover(
  trx: Kysely<Database>,
  handoverId: number,
  companyId: number,
  userId: number,
): Promise<number> {
  const handover = await trx
    .updateTable('site_handovers')
    .set({ outcome: 'accepted', decided_by: userId, decided_at: new Date() })
    .where('id', '=', handoverId)
    .where('to_company_id', '=', companyId)
    .where('outcome', 'is', null)
    .returning(['site_id', 'from_company_id'])
    .executeTakeFirst();
  if (!handover) throw notFound('Handover');
  const siteId = handover.site_id;
  // The site row is held until the transaction ends: an install or a move waits (FOR SHARE).
  const site = await trx
    .selectFrom('sites')
    .select('company_id')
    .where('id', '=', siteId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('sites')
    .set({ company_id: companyId, installer_id: userId, updated_at: new Date() })
    .where('id', '=', siteId)
    .execute();
  if (site.company_id !== null)
    await trx
      .deleteFrom('site_access')
      .where('site_id', '=', siteId)
      .where('user_id', 'in', (eb) =>
        eb
          .selectFrom('company_members')
          .select('user_id')
          .where('company_id', '=', site.company_id as number),
      )
      .execute();
  await giveAdminsSites(trx, companyId, [siteId]);
  // The stays at the site end with the old holder and begin again with the new one.
  await sql`WITH ended AS (
      UPDATE installations SET ended_at = now() WHERE site_id = ${siteId} AND ended_at IS NULL
      RETURNING serial, model_id, site_id, device_id)
    INSERT INTO installations (serial, model_id, site_id, device_id, started_at, company_id)
      SELECT serial, model_id, site_id, device_id, now(), ${companyId} FROM ended`.execute(trx);
  return siteId;
}

/** Routes on a site, mounted at `/sites`: offer it to another company, or withdraw the offer. */
export function handoverSiteRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.post(
    '/:id/handover',
    describeRoute({
      summary:
        "Offer a site to another installer company, named by a member's address (the site's owner, or staff); it changes hands when the company's admins accept",
      tag: 'companies',
      example: { email: 'installer@brightvolt.example' },
      responses: {
        201: { description: 'The open handover', schema: siteHandoverSchema },
        403: { description: 'Not the site owner' },
        404: { description: 'No such site' },
        409: { description: 'An offer of the site is open already (handover_open)' },
        422: { description: 'No other installer company has a member with that address (no_company)' },
      },
    }),
    validate('param', companyItemParamSchema),
    validate('json', handoverRequestSchema),
    async (c) => {
      const caller = c.get('principal');
      const siteId = c.req.valid('param').id;
      await requireSiteRight(db, caller, siteId, mayHandOverSite);
      const { email } = c.req.valid('json');
      const target = await db
        .selectFrom('users')
        .innerJoin('company_members', 'company_members.user_id', 'users.id')
        .select('company_members.company_id')
        .where((eb) => eb(eb.fn('lower', ['users.main_email']), '=', email))
        .executeTakeFirst();
      const site = await db
        .selectFrom('sites')
        .select(['company_id', 'name'])
        .where('id', '=', siteId)
        .executeTakeFirstOrThrow();
      if (!target || target.company_id === site.company_id)
        throw new ApiError(
          422,
          'no_company',
          `No other installer company has a member with the address ${email}`,
          'email',
        );
      const id = await db.transaction().execute(async (trx) => {
        try {
          const row = await trx
            .insertInto('site_handovers')
            .values({
              site_id: siteId,
              from_company_id: site.company_id,
              to_company_id: target.company_id,
              requested_by: caller.id,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const admins = await trx
            .selectFrom('company_members')
            .innerJoin('users', 'users.id', 'company_members.user_id')
            .select(['users.main_email', 'company_members.role'])
            .where('company_members.company_id', '=', target.company_id)
            .execute();
          for (const admin of admins.filter((a) =>
            mayRunCompany({ companyId: target.company_id, role: a.role }),
          ))
            await ctx.mailer.queue(
              {
                to: admin.main_email,
                subject: `${caller.name} hands the site ${site.name} to your company`,
                body: [
                  `${caller.name} (${caller.email}) offers the site ${site.name} to your company on Fleet Manager.`,
                  'Accept or decline it on the Company screen:',
                  `${publicAppUrl(ctx.env)}/company`,
                ].join('\n'),
              },
              trx,
            );
          return row.id;
        } catch (error) {
          if ((error as { code?: string }).code === '23505')
            throw new ApiError(
              409,
              'handover_open',
              'This site is offered to a company already; withdraw that offer first',
            );
          throw error;
        }
      });
      ctx.mailer.kick();
      const [handover] = (await handoversTo(db, target.company_id)).filter((h) => h.id === id);
      return c.json(handover, 201);
    },
  );

  app.delete(
    '/:id/handover',
    describeRoute({
      summary: "Withdraw the open offer of a site to another company (the site's owner, or staff)",
      tag: 'companies',
      responses: {
        204: { description: 'Withdrawn' },
        403: { description: 'Not the site owner' },
        404: { description: 'No such site, or no open offer of it' },
      },
    }),
    validate('param', companyItemParamSchema),
    async (c) => {
      const caller = c.get('principal');
      const siteId = c.req.valid('param').id;
      await requireSiteRight(db, caller, siteId, mayHandOverSite);
      const done = await db
        .updateTable('site_handovers')
        .set({ outcome: 'withdrawn', decided_by: caller.id, decided_at: new Date() })
        .where('site_id', '=', siteId)
        .where('outcome', 'is', null)
        .executeTakeFirst();
      if (done.numUpdatedRows === 0n) throw notFound('Handover');
      return c.body(null, 204);
    },
  );
  return app;
}

/** Let only a company's own admins decide on a handover (the caller must run the company). */
export async function decidingMembership(db: Kysely<Database>, userId: number) {
  const membership = await membershipOf(db, userId);
  if (!membership) throw notFound('Company');
  if (!mayTakeOverSites(membership))
    throw new ApiError(403, 'company_admin_only', "Only the company's admins accept or decline sites");
  return membership;
}
