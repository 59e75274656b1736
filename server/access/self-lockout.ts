import { type AccessChange, wouldLockThemselvesOut } from '../../contracts/access-policy.ts';
import { ApiError } from '../http/errors.ts';
import type { Viewer } from './scope.ts';

/**
 * Refuse a change that would take from the caller their own right to manage who has access to
 * the site: dropping their last managing role, or switching their own access off. Only another
 * manager of the site, or one who sees everything, may do that to them (`wouldLockThemselvesOut`).
 * @throws {ApiError} 409 `self_lockout`.
 */
export function refuseSelfLockout(caller: Viewer, change: AccessChange): void {
  const lost = wouldLockThemselvesOut(caller, change);
  if (!lost) return;
  throw new ApiError(
    409,
    'self_lockout',
    lost === 'roles'
      ? 'You cannot take away your own Installer role here: you would lose the right to manage who has access to this site. Another installer of this site or an admin can do it.'
      : 'You cannot switch off your own access: you would lose this site. Another installer of this site or an admin can do it.',
    lost,
  );
}
