import type { Kysely, Selectable } from 'kysely';
import type { Principal } from '../auth/access-tokens.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';

/**
 * Mail providers anyone can sign up with: an address there says nothing about a company, so its
 * holder's company is that one address (they share templates with no one).
 */
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'mail.com',
  'zoho.com',
  'yandex.com',
  'yandex.ru',
  'qq.com',
  '163.com',
]);

/**
 * A user's company, as settings templates are shared: the domain of their sign-in e-mail
 * (`installer@solarpros.example` → `domain:solarpros.example`), or, at a public mail provider,
 * the address itself (`person:sam@gmail.com`). The data model has no company of its own; the
 * e-mail domain is what an installer's colleagues have in common (docs/api.md).
 * @example companyOf('Sam@SolarPros.example') // 'domain:solarpros.example'
 */
export function companyOf(email: string): string {
  const address = email.trim().toLowerCase();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  return PUBLIC_MAIL_DOMAINS.has(domain) ? `person:${address}` : `domain:${domain}`;
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
    .where('company', '=', companyOf(principal.email))
    .executeTakeFirst();
  if (!template) throw notFound('Template');
  return template;
}
