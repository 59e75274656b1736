import type { MiddlewareHandler } from 'hono';
import type { Actor } from '../../contracts/access-policy.ts';
import { forbidden } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';

/**
 * Middleware: only callers the access policy allows (`may`, one of contracts/access-policy.ts's
 * questions about the actor alone) go on; the others answer 403 with `message` and `code`
 * (`admin_only` when only an admin may, else `role_forbidden`). Mounted after the sign-in
 * middleware and before the route's validators, so a caller who may never make this call learns
 * nothing about its input rules.
 * @example app.post('/create-installer', allowOnly(mayCreateInstallers, 'Only an admin creates installers', 'admin_only'), …)
 */
export function allowOnly(
  may: (actor: Actor) => boolean,
  message: string,
  code: 'admin_only' | 'role_forbidden' = 'role_forbidden',
): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    if (!may(c.get('principal'))) throw forbidden(message, code);
    await next();
  };
}
