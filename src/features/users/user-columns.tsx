import type { User } from '../../../contracts/users.ts';
import { AnchorLink } from '../../components/anchor-link.tsx';
import type { Column } from '../../components/lists/data-list.tsx';

/**
 * Account roles as people read them. "Owner" alone is a site's owner (the site role); an account
 * of role `owner` is an owner account: one that can own sites.
 */
export const ROLE_LABELS = { admin: 'Admin', installer: 'Installer', owner: 'Owner account' } as const;

/** Columns of the users list, its cards and its CSV. */
export const USER_COLUMNS: Column<User>[] = [
  {
    key: 'name',
    header: 'Name',
    text: (user) => user.name,
    render: (user) => (
      <AnchorLink to="/user-details/$userid" params={{ userid: String(user.id) }}>
        {user.name}
      </AnchorLink>
    ),
  },
  { key: 'email', header: 'E-mail', text: (user) => user.main_email },
  { key: 'role', header: 'Role', text: (user) => ROLE_LABELS[user.role] },
  { key: 'phone', header: 'Phone', text: (user) => user.phone ?? '' },
  { key: 'id', header: 'User id', text: (user) => String(user.id), csvOnly: true },
];

export const USER_SORT_OPTIONS = [
  { value: 'name', label: 'Name A–Z' },
  { value: 'email', label: 'E-mail' },
  { value: 'role', label: 'Role' },
];
