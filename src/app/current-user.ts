import { decodeJwt } from 'jose';
import type { AuthSnapshot } from '../../machines/auth/auth-selectors.ts';
import type { AppRuntime } from './app-runtime.ts';

/** The signed-in user as the screens need them: id (the token's `sub`) and role. */
export interface CurrentUser {
  id: number;
  role: 'admin' | 'installer' | 'owner';
}

/** Reads the configuration access token's claims; null when signed out or the token is no JWT. */
export function currentUserOf(s: AuthSnapshot): CurrentUser | null {
  const token = s.context.config.accessToken;
  if (!token) return null;
  try {
    const claims = decodeJwt(token);
    const id = Number(claims.sub);
    const role = claims.role;
    if (!Number.isInteger(id) || (role !== 'admin' && role !== 'installer' && role !== 'owner')) return null;
    return { id, role };
  } catch {
    return null;
  }
}

/**
 * The signed-in user, for loaders (the guard has already waited for sign-in).
 *
 * @throws Error when nobody is signed in, which the guard makes impossible on shell routes
 */
export function requireCurrentUser(runtime: AppRuntime): CurrentUser {
  const user = currentUserOf(runtime.auth.getSnapshot());
  if (!user) throw new Error('Not signed in');
  return user;
}
