import { isManager, mayCreateInstallers } from '../../../contracts/access-policy.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchUsersByRole, fetchUsersPage } from './users-api.ts';
import type { UsersSearch } from './users-search.ts';

/** The page of users the URL names: by role when `role` is set, else everyone the person sees. @throws ApiError */
export async function loadUsersList(runtime: AppRuntime, deps: UsersSearch) {
  const user = requireCurrentUser(runtime);
  const api = runtime.configApi;
  const page = deps.role
    ? await fetchUsersByRole(api, deps.role, { page: deps.page, ...(deps.sort ? { sort: deps.sort } : {}) })
    : await fetchUsersPage(api, user.id, deps);
  const may = { createInstallers: mayCreateInstallers(user), manageUsers: isManager(user) };
  return { user, page, may };
}
