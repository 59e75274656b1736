import { isCompanyStaffEmail } from '../../contracts/company-staff.ts';
import type { UserRole } from '../../contracts/users.ts';
import { forbidden } from '../http/errors.ts';
import type { Viewer } from './scope.ts';

/**
 * Refuse an address in the company domain from anyone but an admin: such an address makes its
 * holder company staff.
 * @throws {ApiError} 403 `admin_only`.
 */
export function requireAdminForCompanyAddress(caller: Viewer, email: string, companyDomain: string): void {
  if (caller.role !== 'admin' && isCompanyStaffEmail(email, companyDomain)) {
    throw forbidden(`Only an admin gives an address at ${companyDomain}`, 'admin_only');
  }
}

/**
 * Whether the caller may change a user they can see: an admin anyone, an installer themself and
 * their owners, an owner only themself.
 * @throws {ApiError} 403 `forbidden` or `user_forbidden`.
 */
export function requireMayEditUser(caller: Viewer, target: Viewer): void {
  if (caller.role === 'owner' && target.id !== caller.id) throw forbidden();
  if (caller.role === 'installer' && target.role !== 'owner' && target.id !== caller.id) {
    throw forbidden('Installers change only their own account and their owners', 'user_forbidden');
  }
}

/**
 * Only an admin gives a user another role (sending the role the user has already is no change).
 * @throws {ApiError} 403 `admin_only`.
 */
export function requireMayGiveRole(caller: Viewer, target: Viewer, role: UserRole | undefined): void {
  if (role !== undefined && caller.role !== 'admin' && role !== target.role) {
    throw forbidden('Only an admin changes roles', 'admin_only');
  }
}

/**
 * Who changes a sign-in e-mail: an admin, or the user themself (who must then give their current
 * password, and may not move into the company domain). Answers whether the password is needed.
 * @throws {ApiError} 403 `email_change_forbidden` or `admin_only`.
 */
export function requireMayChangeEmail(
  caller: Viewer,
  target: Viewer,
  email: string,
  companyDomain: string,
): { passwordNeeded: boolean } {
  if (caller.role === 'admin') return { passwordNeeded: false };
  if (caller.id !== target.id) {
    throw forbidden(
      'Only the user themself (with their current password) or an admin changes a sign-in e-mail',
      'email_change_forbidden',
    );
  }
  requireAdminForCompanyAddress(caller, email, companyDomain);
  return { passwordNeeded: true };
}
