import type { Kysely } from 'kysely';
import {
  COMPANY_ADMIN_SITE_ROLES,
  type Membership,
  seesEveryCompanySite,
} from '../../contracts/access-policy.ts';
import type { CompanyRole } from '../../contracts/companies.ts';
import type { Database } from '../db/schema.ts';
import { domainKeyOf } from './domain-key.ts';

/**
 * Who belongs to which installer company (migration 19), and what belonging gives: a member of
 * one company at a time; the company's admins hold access to every site of the company, kept in
 * `site_access` rows marked `by_company`, so every list, count and live screen that reads access
 * needs nothing else. Leaving (or being removed) takes every access to the company's sites away
 * in the same transaction: the sites stay with the company.
 */

/** The user's company and company role, or null for someone in none. */
export async function membershipOf(db: Kysely<Database>, userId: number): Promise<Membership | null> {
  const row = await db
    .selectFrom('company_members')
    .select(['company_id', 'role'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? { companyId: row.company_id, role: row.role } : null;
}

/** Give the company's admins access to these sites of theirs (a new site, a site handed over). */
export async function giveAdminsSites(
  trx: Kysely<Database>,
  companyId: number,
  siteIds: readonly number[] | 'all',
): Promise<void> {
  const members = await trx
    .selectFrom('company_members')
    .select(['user_id', 'role'])
    .where('company_id', '=', companyId)
    .execute();
  const admins = members
    .filter((member) => seesEveryCompanySite({ companyId, role: member.role }))
    .map((member) => member.user_id);
  for (const userId of admins) await giveSites(trx, userId, companyId, siteIds);
}

async function giveSites(
  trx: Kysely<Database>,
  userId: number,
  companyId: number,
  siteIds: readonly number[] | 'all',
): Promise<void> {
  if (siteIds !== 'all' && siteIds.length === 0) return;
  await trx
    .insertInto('site_access')
    .columns(['site_id', 'user_id', 'roles', 'access', 'by_company'])
    .expression((eb) =>
      eb
        .selectFrom('sites')
        .select((s) => [
          'sites.id',
          s.val(userId).as('user_id'),
          s.val([...COMPANY_ADMIN_SITE_ROLES]).as('roles'),
          s.val(true).as('access'),
          s.val(true).as('by_company'),
        ])
        .where('sites.company_id', '=', companyId)
        .$if(siteIds !== 'all', (q) => q.where('sites.id', 'in', siteIds as number[])),
    )
    .onConflict((oc) => oc.columns(['site_id', 'user_id']).doNothing())
    .execute();
}

/**
 * Take from a user every access to their company's sites and end their membership. Answers the
 * sites they lose (for live screens to recheck), or null when they were in no company.
 */
export async function leaveCompany(trx: Kysely<Database>, userId: number): Promise<number[] | null> {
  const left = await trx
    .deleteFrom('company_members')
    .where('user_id', '=', userId)
    .returning('company_id')
    .executeTakeFirst();
  if (!left) return null;
  const lost = await trx
    .deleteFrom('site_access')
    .where('user_id', '=', userId)
    .where('site_id', 'in', (eb) =>
      eb.selectFrom('sites').select('sites.id').where('sites.company_id', '=', left.company_id),
    )
    .returning('site_id')
    .execute();
  return lost.map((row) => row.site_id);
}

/**
 * Make a user a member of a company with a role, leaving the one they were in (and its sites).
 * Answers the sites whose access changed.
 */
export async function joinCompany(
  trx: Kysely<Database>,
  userId: number,
  companyId: number,
  role: CompanyRole,
): Promise<number[]> {
  const current = await membershipOf(trx, userId);
  if (current?.companyId === companyId) return setMemberRole(trx, userId, companyId, role);
  const lost = (await leaveCompany(trx, userId)) ?? [];
  await trx.insertInto('company_members').values({ user_id: userId, company_id: companyId, role }).execute();
  if (seesEveryCompanySite({ companyId, role })) await giveSites(trx, userId, companyId, 'all');
  return lost;
}

/**
 * Give a member another company role: one who comes to see every site gets access to each, one
 * who no longer does keeps only the access given to them on a site itself. Answers the sites whose
 * access changed.
 */
export async function setMemberRole(
  trx: Kysely<Database>,
  userId: number,
  companyId: number,
  role: CompanyRole,
): Promise<number[]> {
  await trx
    .updateTable('company_members')
    .set({ role })
    .where('user_id', '=', userId)
    .where('company_id', '=', companyId)
    .execute();
  if (seesEveryCompanySite({ companyId, role })) {
    await giveSites(trx, userId, companyId, 'all');
    return [];
  }
  const taken = await trx
    .deleteFrom('site_access')
    .where('user_id', '=', userId)
    .where('by_company', '=', true)
    .returning('site_id')
    .execute();
  return taken.map((row) => row.site_id);
}

/**
 * The company an installer an admin creates joins, as before companies were records: the one made
 * from their e-mail domain, or a new one named from it, of which they are the admin.
 */
export async function joinCompanyOfAddress(
  trx: Kysely<Database>,
  user: { id: number; main_email: string; display_name: string },
): Promise<void> {
  const key = domainKeyOf(user.main_email);
  const existing = await trx
    .selectFrom('companies')
    .select('id')
    .where('origin', '=', key.origin)
    .executeTakeFirst();
  if (existing) {
    await joinCompany(trx, user.id, existing.id, 'installer');
    return;
  }
  const made = await trx
    .insertInto('companies')
    .values({ name: key.person ? user.display_name : key.name, origin: key.origin })
    .returning('id')
    .executeTakeFirstOrThrow();
  await joinCompany(trx, user.id, made.id, 'admin');
}
