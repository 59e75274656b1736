import {
  type Actor,
  isManager,
  mayChangeEmail,
  mayChangeSignIn,
  mayEditUser,
  mayGiveCompanyAddress,
  mayGiveRole,
} from '../../contracts/access-policy.ts';
import { isCompanyStaffEmail } from '../../contracts/company-staff.ts';
import type { UserRole } from '../../contracts/users.ts';
import { forbidden } from '../http/errors.ts';

/** A user acted on: their id and role. */
interface TargetUser {
  id: number;
  role: UserRole;
}

/**
 * Refuse an address in the company domain from anyone but an admin: such an address makes its
 * holder company staff.
 * @throws {ApiError} 403 `admin_only`.
 */
export function requireAdminForCompanyAddress(caller: Actor, email: string, companyDomain: string): void {
  if (!mayGiveCompanyAddress(caller) && isCompanyStaffEmail(email, companyDomain)) {
    throw forbidden(`Only an admin gives an address at ${companyDomain}`, 'admin_only');
  }
}

/**
 * Whether the caller may change a user they can see (`mayEditUser`).
 * @throws {ApiError} 403 `forbidden` (an owner) or `user_forbidden` (an installer).
 */
export function requireMayEditUser(caller: Actor, target: TargetUser): void {
  if (mayEditUser(caller, target)) return;
  if (!isManager(caller)) throw forbidden();
  throw forbidden('Installers change only their own account and their owners', 'user_forbidden');
}

/**
 * Only an admin gives a user another role (sending the role the user has already is no change).
 * @throws {ApiError} 403 `admin_only`.
 */
export function requireMayGiveRole(caller: Actor, target: TargetUser, role: UserRole | undefined): void {
  if (!mayGiveRole(caller, target, role)) {
    throw forbidden('Only an admin changes roles', 'admin_only');
  }
}

/**
 * Who changes a sign-in e-mail (`mayChangeEmail`): an admin, or the user themself, who must then
 * give their current password and may not move into the company domain. Answers whether the
 * password is needed.
 * @throws {ApiError} 403 `email_change_forbidden` or `admin_only`.
 */
export function requireMayChangeEmail(
  caller: Actor,
  target: TargetUser,
  email: string,
  companyDomain: string,
): { passwordNeeded: boolean } {
  requireSignedInPerson(caller);
  const may = mayChangeEmail(caller, target.id);
  if (may === 'yes') return { passwordNeeded: false };
  if (may === 'no') {
    throw forbidden(
      'Only the user themself (with their current password) or an admin changes a sign-in e-mail',
      'email_change_forbidden',
    );
  }
  requireAdminForCompanyAddress(caller, email, companyDomain);
  return { passwordNeeded: true };
}

/**
 * Refuse a call made with an API key where only a person signed in may act (`mayChangeSignIn`):
 * a key never changes a password or a sign-in e-mail.
 * @throws {ApiError} 403 `api_key_forbidden`.
 */
export function requireSignedInPerson(caller: Actor): void {
  if (!mayChangeSignIn(caller))
    throw forbidden(
      'An API key cannot change a password or a sign-in e-mail; sign in to do it',
      'api_key_forbidden',
    );
}
