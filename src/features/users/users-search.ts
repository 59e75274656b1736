import { USER_SORT_KEYS } from '../../../contracts/list-sort-keys.ts';
import { type UserRole, userRoleSchema } from '../../../contracts/users.ts';
import { type ListSearch, listSearchValidator } from '../../components/lists/list-search.ts';

/** The users list URL: the list state, plus `?role=` to list users by role. */
export interface UsersSearch extends ListSearch {
  role?: UserRole;
}

const base = listSearchValidator(USER_SORT_KEYS);

export function usersSearch(search: Record<string, unknown>): UsersSearch {
  const role = userRoleSchema.safeParse(search.role);
  return { ...base(search), ...(role.success ? { role: role.data } : {}) };
}
