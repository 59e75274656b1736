import type { CompanyMember } from '../../../contracts/companies.ts';
import { GrantSiteAccess } from '../../components/site-access/grant-site-access.tsx';

/**
 * Gives a member of the caller's installer company access to a site, with roles: how an
 * installer of the company comes to work on a site. The members offered are those with no access
 * record on the site yet.
 */
export function AddCompanyMember({
  siteId,
  company,
  members,
}: {
  siteId: number;
  company: string;
  members: CompanyMember[];
}) {
  return (
    <GrantSiteAccess
      siteId={siteId}
      label={`Give a member of ${company} access`}
      placeholder="Choose a member"
      people={members.map((m) => ({ id: m.userId, label: `${m.name} (${m.email})` }))}
      defaultRoles={['installer']}
      nothingFound="No member of that name"
    />
  );
}
