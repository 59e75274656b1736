import type { Actor } from '../../contracts/access-policy.ts';
import { type AuthSnapshot, currentActor } from '../../machines/auth/auth-selectors.ts';
import type { AppRuntime } from './app-runtime.ts';

/**
 * The signed-in user as the screens need them: id (the token's `sub`), role, and whether they are
 * company staff; what the access policy (contracts/access-policy.ts) asks about.
 */
export type CurrentUser = Actor;

/** The signed-in user; null when signed out or the token is no JWT. */
export function currentUserOf(s: AuthSnapshot, companyDomain: string): CurrentUser | null {
  return currentActor(s, companyDomain);
}

/** Whether two reads of the signed-in user are the same person with the same rights. */
export function sameUser(a: CurrentUser | null, b: CurrentUser | null): boolean {
  return a?.id === b?.id && a?.role === b?.role && a?.staff === b?.staff;
}

/**
 * The signed-in user, for loaders (the guard has already waited for sign-in).
 *
 * @throws Error when nobody is signed in, which the guard makes impossible on shell routes
 */
export function requireCurrentUser(runtime: AppRuntime): CurrentUser {
  const user = currentUserOf(runtime.auth.getSnapshot(), runtime.config.companyDomain);
  if (!user) throw new Error('Not signed in');
  return user;
}
