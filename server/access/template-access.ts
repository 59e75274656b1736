import type { Kysely, Selectable } from 'kysely';
import type { Principal } from '../auth/access-tokens.ts';
import { domainKeyOf } from '../companies/domain-key.ts';
import { membershipOf } from '../companies/memberships.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';

/**
 * A user's company, as settings templates are shared: their installer company
 * (`company:12`), or for someone in none (an admin, a person removed from theirs) the domain of
 * their sign-in e-mail (`domain:solarpros.example`), or at a public mail provider the address
 * itself (`person:sam@gmail.com`), as before companies were records.
 */
export async function templateCompanyOf(db: Kysely<Database>, principal: Principal): Promise<string> {
  const membership = await membershipOf(db, principal.id);
  return membership ? `company:${membership.companyId}` : domainKeyOf(principal.email).origin;
}

/**
 * A template of the caller's company.
 * @throws {ApiError} 404 when there is no such template or it belongs to another company.
 */
export async function requireCompanyTemplate(
  db: Kysely<Database>,
  principal: Principal,
  id: number,
): Promise<Selectable<Database['config_templates']>> {
  const template = await db
    .selectFrom('config_templates')
    .selectAll()
    .where('id', '=', id)
    .where('company', '=', await templateCompanyOf(db, principal))
    .executeTakeFirst();
  if (!template) throw notFound('Template');
  return template;
}
