import type { MiddlewareHandler } from 'hono';
import type { UserRole } from '../../contracts/users.ts';
import { forbidden } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';

/**
 * Middleware: only callers whose user role is one of `roles` go on; the others answer 403 with
 * `message`, code `admin_only` when only an admin may, else `role_forbidden`. Mounted after the
 * sign-in middleware and before the route's validators, so a caller who may never make this call
 * learns nothing about its input rules.
 * @example app.post('/create-installer', requireRole(['admin'], 'Only an admin creates installers'), …)
 */
export function requireRole(
  roles: readonly UserRole[],
  message: string,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  const code = roles.length === 1 && roles[0] === 'admin' ? 'admin_only' : 'role_forbidden';
  return async (c, next) => {
    if (!roles.includes(c.get('principal').role)) throw forbidden(message, code);
    await next();
  };
}

/** Admins and installers: every role but the site owners. */
export const MANAGERS: readonly UserRole[] = ['admin', 'installer'];
