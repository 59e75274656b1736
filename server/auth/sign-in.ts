import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { type Principal, signAccessToken } from './access-tokens.ts';
import { beginAttempt, type FailurePolicy } from './failure-limits.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';

/** Failed sign-ins counted per 15 minutes, shared by every sign-in call (see failure-limits.ts). */
export function loginPolicy(env: ServerContext['env']): FailurePolicy {
  return {
    name: 'login',
    refusal: (wait) =>
      `Too many failed sign-ins; try again ${wait}, or choose "Forgot password?" to set a new password with a code.`,
    windowSeconds: 15 * 60,
    perSource: env.LOGIN_LIMIT_PER_ACCOUNT,
    perAddress: env.LOGIN_LIMIT_PER_ADDRESS,
    ceiling: env.LOGIN_CEILING_PER_ACCOUNT,
  };
}

/**
 * Check an e-mail and password. Only failures count towards the limits (per account from one
 * address, per address, and a per-account ceiling), kept in the database.
 * @throws {ApiError} 429 when this address may not try this account now, 401 `invalid_credentials`
 * on any mismatch.
 */
export async function checkCredentials(
  ctx: ServerContext,
  email: string,
  password: string,
  address: string,
): Promise<Principal> {
  const account = email.trim().toLowerCase();
  const attempt = await beginAttempt(ctx, loginPolicy(ctx.env), account, address);
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'main_email', 'display_name', 'role', 'password_hash'])
    .where((eb) => eb(eb.fn('lower', ['main_email']), '=', account))
    .executeTakeFirst();
  const ok = user?.password_hash
    ? await verifyPassword(password, user.password_hash)
    : await verifyAgainstDummy(password, ctx.scryptCost);
  if (!user || !ok) throw new ApiError(401, 'invalid_credentials', 'E-mail or password is wrong');
  await attempt.succeeded();
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

/** A configuration access token for a user's sign-in (its refresh-token family). */
export function configAccessToken(ctx: ServerContext, user: Principal, sessionId: string): Promise<string> {
  return signAccessToken(ctx.configKey, 'fleet-config', user, ctx.env.ACCESS_TOKEN_TTL, ctx.now(), sessionId);
}

/** A monitoring access token for a user, of a sign-in when it has one (the older password sign-in has none). */
export function monitoringAccessToken(
  ctx: ServerContext,
  user: Principal,
  sessionId?: string,
): Promise<string> {
  return signAccessToken(
    ctx.monitoringKey,
    'fleet-monitoring',
    user,
    ctx.env.ACCESS_TOKEN_TTL,
    ctx.now(),
    sessionId,
  );
}
