import {
  isManager,
  mayBeLinkedToInstaller,
  mayChangeRoles,
  mayEditUser,
} from '../../../contracts/access-policy.ts';
import { ApiError } from '../../api/api-error.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchUser, fetchUserSites, fetchUsersByRole } from './users-api.ts';

/** A user, their sites, and (for the admin and installers) the installers they can be linked to. @throws ApiError */
export async function loadUserDetails(runtime: AppRuntime, userid: string) {
  const me = requireCurrentUser(runtime);
  const id = Number(userid);
  if (!/^\d{1,9}$/.test(userid) || id < 1) {
    throw new ApiError(`No user ${userid}`, { status: 404, code: 'not_found', path: `/users/${userid}` });
  }
  const api = runtime.configApi;
  const [user, sites, installers] = await Promise.all([
    fetchUser(api, id),
    fetchUserSites(api, id).catch(() => null),
    isManager(me)
      ? fetchUsersByRole(api, 'installer', { page: 0 }, 100).then(
          (p) => p.items,
          () => [],
        )
      : Promise.resolve([]),
  ]);
  const may = {
    edit: mayEditUser(me, user),
    changeRole: mayChangeRoles(me),
    /** Send another user an access code, link them to an installer. */
    manage: isManager(me) && me.id !== user.id,
    linkInstaller: mayBeLinkedToInstaller(user),
  };
  return { me, user, sites, installers, may };
}
