import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSearch } from '../../app/use-search.ts';
import { GrantSiteAccess } from '../../components/site-access/grant-site-access.tsx';
import { findUsers } from './site-manager-api.ts';

/**
 * Give a user roles on a site. The person is found as they type: the search waits for a pause
 * and only the latest text's answer is shown.
 */
export function AddSiteUser({ siteId, adminId }: { siteId: number; adminId: number }) {
  const { configApi } = useRuntime();
  const search = useSearch<User>((text, signal) => findUsers(configApi, adminId, text, signal));
  return (
    <GrantSiteAccess
      siteId={siteId}
      label="Give a user access"
      placeholder="Type an e-mail or name"
      people={search.results.map((u) => ({ id: u.id, label: `${u.name} (${u.main_email})` }))}
      defaultRoles={['viewer']}
      nothingFound={search.searching ? 'Searching…' : 'No user found'}
      onSearch={search.type}
      searchError={search.error}
    />
  );
}
