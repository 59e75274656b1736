import { ApiError } from '../http/errors.ts';
import { SITE_MANAGERS, type Viewer } from './scope.ts';

/** What a change of one user's access to a site leaves them: their roles, or their access flag. */
export interface AccessChange {
  userId: number;
  roles?: readonly string[];
  access?: boolean;
}

/**
 * Refuse a change that would take from the caller their own right to manage who has access to
 * the site: dropping their last managing role, or switching their own access off. Only another
 * manager of the site, or an admin, may do that to them; an admin keeps the right whatever their
 * site roles, so an admin is never refused.
 * @throws {ApiError} 409 `self_lockout`.
 */
export function refuseSelfLockout(caller: Viewer, change: AccessChange): void {
  if (caller.role === 'admin' || change.userId !== caller.id) return;
  const dropsRole =
    change.roles !== undefined && !change.roles.some((role) => SITE_MANAGERS.includes(role as never));
  if (!dropsRole && change.access !== false) return;
  throw new ApiError(
    409,
    'self_lockout',
    dropsRole
      ? 'You cannot take away your own Installer role here: you would lose the right to manage who has access to this site. Another installer of this site or an admin can do it.'
      : 'You cannot switch off your own access: you would lose this site. Another installer of this site or an admin can do it.',
    dropsRole ? 'roles' : 'access',
  );
}
