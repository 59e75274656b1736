import type { Context } from 'hono';
import { type Actor, actorOf } from '../../contracts/access-policy.ts';
import { apiKeyStands } from '../auth/api-keys.ts';
import { loadPrincipal } from '../auth/sign-in.ts';
import type { ServerContext } from '../context.ts';
import type { AuthVariables } from '../http/guards.ts';

/**
 * For a long-lived answer (a live stream): a check of whether the sign-in that opened it still
 * holds. The check answers the caller as they are now, or undefined once they signed out, their
 * sign-in was revoked or ended (a new password, e-mail or role), their API key was revoked or
 * expired, or their account is gone.
 */
export function streamCaller(
  ctx: ServerContext,
  c: Context<{ Variables: AuthVariables }>,
): () => Promise<Actor | undefined> {
  const { id } = c.get('principal');
  const issuedAt = c.get('tokenIssuedAt');
  const sessionId = c.get('sessionId');
  const { key } = c.get('principal');
  const keyId = c.get('apiKeyId');
  return async () => {
    const fresh = await loadPrincipal(ctx, id);
    if (!fresh || !(await ctx.sessions.isCurrentNow(id, issuedAt, sessionId))) return undefined;
    if (keyId && !(await apiKeyStands(ctx.db, keyId, ctx.now()))) return undefined;
    return { ...fresh, staff: actorOf(fresh, ctx.env.COMPANY_DOMAIN).staff, ...(key ? { key } : {}) };
  };
}
