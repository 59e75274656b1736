import { decodeJwt } from 'jose';
import type { SnapshotFrom } from 'xstate';
import { type Actor, actorOf } from '../../contracts/access-policy.ts';
import { type UserRole, userRoleSchema } from '../../contracts/users.ts';
import type { Service } from '../storage-keys.ts';
import type { authMachine } from './auth-machine.ts';

export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

/** True once every stored refresh token has been tried; route guards wait for this. */
export const isInitialised = (s: AuthSnapshot): boolean => !s.matches({ session: 'initialising' });

/** Signed in means both services accepted the user (specification §4). */
export const isAuthenticated = (s: AuthSnapshot): boolean =>
  s.context.config.good && s.context.monitoring.good;

/** E-mail of the signed-in user, or null. */
export const currentEmail = (s: AuthSnapshot): string | null => (isAuthenticated(s) ? s.context.email : null);

/** Claims of the configuration access token, or null when there is none or it is not a JWT. */
function configClaims(s: AuthSnapshot): Record<string, unknown> | null {
  const token = s.context.config.accessToken;
  if (!token) return null;
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}

/** The `name` claim of the configuration access token; falls back to the e-mail. */
export function currentUserName(s: AuthSnapshot): string | null {
  const name = configClaims(s)?.name;
  return typeof name === 'string' && name.trim() ? name : currentEmail(s);
}

/** The `role` claim of the configuration access token. */
export function currentRole(s: AuthSnapshot): UserRole | null {
  const role = userRoleSchema.safeParse(configClaims(s)?.role);
  return role.success ? role.data : null;
}

/** The last sign-in failure: the server's message or a clear generic one; null when none. */
export const loginError = (s: AuthSnapshot): string | null => s.context.loginError;

/** True while the two logins run. */
export const isSigningIn = (s: AuthSnapshot): boolean => s.matches({ session: 'signingIn' });

/** True while `service` refreshes its access token. */
export const isRefreshing = (s: AuthSnapshot, service: Service): boolean =>
  s.matches({ [service]: 'refreshing' });

/**
 * The signed-in user as the access policy asks about them (contracts/access-policy.ts): id (the
 * configuration token's `sub`), role, and whether their e-mail makes them company staff; null when
 * signed out or the token is no JWT.
 */
export function currentActor(s: AuthSnapshot, companyDomain: string): Actor | null {
  const claims = configClaims(s);
  const id = Number(claims?.sub);
  const role = currentRole(s);
  const email = currentEmail(s);
  if (!Number.isInteger(id) || role === null) return null;
  return actorOf({ id, role, email }, companyDomain);
}

/** Company staff: the signed-in e-mail ends with `@companyDomain`, case-insensitive (the server's rule too). */
export function isCompanyStaff(s: AuthSnapshot, companyDomain: string): boolean {
  return currentActor(s, companyDomain)?.staff ?? false;
}
