import { type Kysely, sql } from 'kysely';
import { isCompanyStaffEmail } from '../../contracts/company-staff.ts';
import { domainKeyOf } from '../companies/domain-key.ts';
import type { Database } from './schema.ts';

/**
 * Migration 19, installer companies as records: a company (name, address, logo), its members
 * (one company per user, with a company role), invitations by mail, and each site's company.
 * A company's admins hold site access on every site of their company, kept in `site_access` with
 * `by_company` (so every list, count and live screen that reads access sees them too); an
 * installation remembers the company that held its site, so a site handed to another company
 * keeps its past, marked with who held it.
 */
export const COMPANIES_SQL = `
  CREATE TABLE companies (
    id serial PRIMARY KEY,
    name text NOT NULL,
    address text NOT NULL DEFAULT '',
    logo bytea,
    logo_type text CHECK (logo_type IN ('image/png', 'image/jpeg')),
    -- The e-mail domain (or, at a public mail provider, the one address) it was made from; null
    -- for a company made otherwise. An installer created by an admin joins the company of theirs.
    origin text UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE company_members (
    user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('admin', 'installer', 'viewer')),
    joined_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX company_members_company_idx ON company_members (company_id, user_id);
  CREATE TABLE company_invitations (
    id serial PRIMARY KEY,
    company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    email text NOT NULL,
    role text NOT NULL CHECK (role IN ('admin', 'installer', 'viewer')),
    -- SHA-256 (hex) of the link's secret; the secret itself is only in the mail.
    token_hash text NOT NULL UNIQUE,
    invited_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    accepted_at timestamptz,
    accepted_by integer REFERENCES users(id) ON DELETE SET NULL,
    revoked_at timestamptz
  );
  CREATE UNIQUE INDEX company_invitations_open_key ON company_invitations (company_id, lower(email))
    WHERE accepted_at IS NULL AND revoked_at IS NULL;
  ALTER TABLE sites ADD COLUMN company_id integer REFERENCES companies(id) ON DELETE SET NULL;
  CREATE INDEX sites_company_idx ON sites (company_id, id);
  ALTER TABLE site_access ADD COLUMN by_company boolean NOT NULL DEFAULT false;
  ALTER TABLE installations ADD COLUMN company_id integer REFERENCES companies(id) ON DELETE SET NULL;

  -- A stay begins with the company that holds its site then.
  CREATE FUNCTION installations_company() RETURNS trigger AS $$
  BEGIN
    IF NEW.company_id IS NULL THEN
      NEW.company_id := (SELECT company_id FROM sites WHERE id = NEW.site_id);
    END IF;
    RETURN NEW;
  END $$ LANGUAGE plpgsql;
  CREATE TRIGGER installations_company BEFORE INSERT ON installations
    FOR EACH ROW EXECUTE FUNCTION installations_company();
`;

/**
 * The data step: one company per e-mail domain of today's installers (a person at a public mail
 * provider is a company of one), named from the domain; its first member is its admin, the
 * others installers. Each site goes to its installer's company, the admins get access to every
 * site of theirs, templates move from the domain to the company, and installations are marked
 * with their site's company.
 */
export async function fillCompanies(trx: Kysely<Database>, companyDomain: string): Promise<void> {
  const installers = await trx
    .selectFrom('users')
    .select(['id', 'main_email', 'display_name'])
    .where('role', '=', 'installer')
    .orderBy('id')
    .execute();
  const companies = new Map<string, number>();
  for (const user of installers) {
    if (isCompanyStaffEmail(user.main_email, companyDomain)) continue;
    const key = domainKeyOf(user.main_email);
    let companyId = companies.get(key.origin);
    const first = companyId === undefined;
    if (companyId === undefined) {
      const row = await trx
        .insertInto('companies')
        .values({ name: key.person ? user.display_name : key.name, origin: key.origin })
        .returning('id')
        .executeTakeFirstOrThrow();
      companyId = row.id;
      companies.set(key.origin, companyId);
    }
    await trx
      .insertInto('company_members')
      .values({ user_id: user.id, company_id: companyId, role: first ? 'admin' : 'installer' })
      .execute();
  }
  await sql`UPDATE sites s SET company_id = m.company_id FROM company_members m WHERE m.user_id = s.installer_id`.execute(
    trx,
  );
  await sql`INSERT INTO site_access (site_id, user_id, roles, access, by_company)
    SELECT s.id, m.user_id, ARRAY['installer', 'configurator'], true, true
    FROM sites s JOIN company_members m ON m.company_id = s.company_id AND m.role = 'admin'
    ON CONFLICT (site_id, user_id) DO NOTHING`.execute(trx);
  await sql`UPDATE config_templates t SET company = 'company:' || c.id FROM companies c WHERE c.origin = t.company`.execute(
    trx,
  );
  await sql`UPDATE installations i SET company_id = s.company_id FROM sites s WHERE s.id = i.site_id`.execute(
    trx,
  );
}

/**
 * Migration 20, handing a site over: a site's owner (or staff) offers it to another installer
 * company, whose admins accept or decline. Accepted, the site is the new company's, the old one
 * loses access to it, and its installations end there and begin again for the new holder.
 */
export const SITE_HANDOVERS_SQL = `
  CREATE TABLE site_handovers (
    id serial PRIMARY KEY,
    site_id integer NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    from_company_id integer REFERENCES companies(id) ON DELETE SET NULL,
    to_company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    requested_by integer REFERENCES users(id) ON DELETE SET NULL,
    requested_at timestamptz NOT NULL DEFAULT now(),
    -- accepted, declined or withdrawn: a handover is open until one of them.
    outcome text CHECK (outcome IN ('accepted', 'declined', 'withdrawn')),
    decided_by integer REFERENCES users(id) ON DELETE SET NULL,
    decided_at timestamptz
  );
  CREATE UNIQUE INDEX site_handovers_open_key ON site_handovers (site_id) WHERE outcome IS NULL;
  CREATE INDEX site_handovers_to_idx ON site_handovers (to_company_id) WHERE outcome IS NULL;
`;
