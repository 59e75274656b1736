import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { companyOf } from './template-access.ts';

/**
 * The company a site belongs to, as a key two sites are compared by: its installer's company
 * (`companyOf` of the installer's sign-in e-mail, as templates are shared), or, for a site no
 * installer made (staff made it, or its installer's account is gone), a company of that site
 * alone. This is the one place that says which company holds a site: whatever compares companies
 * (a device claimed by another company) asks it.
 * @example await companyOfSite(db, 5) // 'domain:solarpros.example'
 */
export async function companyOfSite(db: Kysely<Database>, siteId: number): Promise<string> {
  const row = await db
    .selectFrom('sites')
    .leftJoin('users', 'users.id', 'sites.installer_id')
    .select('users.main_email')
    .where('sites.id', '=', siteId)
    .executeTakeFirst();
  return row?.main_email ? companyOf(row.main_email) : `site:${siteId}`;
}

/** Whether two sites belong to one company. */
export async function sameCompany(db: Kysely<Database>, siteA: number, siteB: number): Promise<boolean> {
  if (siteA === siteB) return true;
  const [a, b] = await Promise.all([companyOfSite(db, siteA), companyOfSite(db, siteB)]);
  return a === b;
}
