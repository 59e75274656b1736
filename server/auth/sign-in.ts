import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { type Principal, signAccessToken } from './access-tokens.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { hitRateLimit } from './rate-limit.ts';

const LOGIN_WINDOW_SECONDS = 15 * 60;

/**
 * Check an e-mail and password, rate limited per account and per address (in the database).
 * @throws {ApiError} 429 when over a limit, 401 `invalid_credentials` on any mismatch.
 */
export async function checkCredentials(
  ctx: ServerContext,
  email: string,
  password: string,
  address: string,
): Promise<Principal> {
  const account = email.trim().toLowerCase();
  await hitRateLimit(ctx.db, [
    {
      key: `login:address:${address}`,
      limit: { limit: ctx.env.LOGIN_LIMIT_PER_ADDRESS, windowSeconds: LOGIN_WINDOW_SECONDS },
    },
    {
      key: `login:account:${account}`,
      limit: { limit: ctx.env.LOGIN_LIMIT_PER_ACCOUNT, windowSeconds: LOGIN_WINDOW_SECONDS },
    },
  ]);
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'main_email', 'display_name', 'role', 'password_hash'])
    .where((eb) => eb(eb.fn('lower', ['main_email']), '=', account))
    .executeTakeFirst();
  const ok = user?.password_hash
    ? await verifyPassword(password, user.password_hash)
    : await verifyAgainstDummy(password, ctx.scryptCost);
  if (!user || !ok) throw new ApiError(401, 'invalid_credentials', 'E-mail or password is wrong');
  return { id: user.id, email: user.main_email, name: user.display_name, role: user.role };
}

/** Load the current name and role of a user for a new access token; null when the user is gone. */
export async function loadPrincipal(ctx: ServerContext, userId: number): Promise<Principal | null> {
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'main_email', 'display_name', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user ? { id: user.id, email: user.main_email, name: user.display_name, role: user.role } : null;
}

/** A configuration access token for a user. */
export function configAccessToken(ctx: ServerContext, user: Principal): Promise<string> {
  return signAccessToken(ctx.configKey, 'fleet-config', user, ctx.env.ACCESS_TOKEN_TTL);
}

/** A monitoring access token for a user. */
export function monitoringAccessToken(ctx: ServerContext, user: Principal): Promise<string> {
  return signAccessToken(ctx.monitoringKey, 'fleet-monitoring', user, ctx.env.ACCESS_TOKEN_TTL);
}
