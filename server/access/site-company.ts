import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The company a site belongs to, as a key two sites are compared by: its installer company's
 * record (`sites.company_id`, migration 19; it follows a site handed over), or, for a site of no
 * company (staff made it outside any), a company of that site alone. This is the one place that
 * says which company holds a site: whatever compares companies (a device claimed by another
 * company) asks it.
 * @example await companyOfSite(db, 5) // 'company:1'
 */
export async function companyOfSite(db: Kysely<Database>, siteId: number): Promise<string> {
  const row = await db.selectFrom('sites').select('company_id').where('id', '=', siteId).executeTakeFirst();
  return row?.company_id != null ? `company:${row.company_id}` : `site:${siteId}`;
}

/** Whether two sites belong to one company. */
export async function sameCompany(db: Kysely<Database>, siteA: number, siteB: number): Promise<boolean> {
  if (siteA === siteB) return true;
  const [a, b] = await Promise.all([companyOfSite(db, siteA), companyOfSite(db, siteB)]);
  return a === b;
}
