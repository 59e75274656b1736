import type { Context } from 'hono';
import type { Kysely, Selectable } from 'kysely';
import { requireMayChangeEmail } from '../access/user-rights.ts';
import { beginAttempt, type FailurePolicy } from '../auth/failure-limits.ts';
import { verifyAgainstDummy, verifyPassword } from '../auth/passwords.ts';
import { endSessions } from '../auth/sessions.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError, forbidden } from '../http/errors.ts';
import type { Caller } from '../http/guards.ts';

/** Wrong current passwords (an e-mail or password change), counted like failed sign-ins. */
const PASSWORD_CHECK: FailurePolicy = {
  name: 'password-check',
  refusal: (wait) => `Too many wrong passwords; try again ${wait}.`,
  windowSeconds: 15 * 60,
  perSource: 10,
  perAddress: 100,
  ceiling: 1000,
};

/**
 * Check a user's current password, counted like a sign-in: only failures count, per account and
 * address. 403 rather than 401, so that the app does not take it for an expired token.
 * @throws {ApiError} 403 `current_password_wrong`, 429 after too many wrong passwords.
 */
export async function checkCurrentPassword(
  ctx: ServerContext,
  c: Context,
  user: Pick<Selectable<Database['users']>, 'id' | 'password_hash'>,
  password: string,
): Promise<void> {
  const attempt = await beginAttempt(
    ctx,
    PASSWORD_CHECK,
    `user:${user.id}`,
    clientAddress(c, ctx.env.TRUST_PROXY),
  );
  const ok = user.password_hash
    ? await verifyPassword(password, user.password_hash)
    : await verifyAgainstDummy(password, ctx.scryptCost);
  if (!ok) throw forbidden('The current password is wrong', 'current_password_wrong');
  await attempt.succeeded();
}

/**
 * Check that the caller may change `target`'s sign-in e-mail to `email` (see
 * `requireMayChangeEmail`), and the current password when the user changes their own.
 * @throws {ApiError} 403 `email_change_forbidden`, `admin_only` or `current_password_wrong`,
 * 400 when the current password is missing, 429 after too many wrong passwords.
 */
export async function authorizeEmailChange(
  ctx: ServerContext,
  c: Context,
  caller: Caller,
  target: Selectable<Database['users']>,
  email: string,
  currentPassword: string | undefined,
): Promise<void> {
  if (!requireMayChangeEmail(caller, target, email, ctx.env.COMPANY_DOMAIN).passwordNeeded) return;
  if (!currentPassword) {
    throw new ApiError(
      400,
      'invalid_input',
      'current_password: give your current password to change your sign-in e-mail',
      'current_password',
    );
  }
  await checkCurrentPassword(ctx, c, target, currentPassword);
}

/**
 * Inside the transaction that changed the e-mail: end every session of the user, void their
 * unspent codes and unsent code mail (they were meant for the old address), and queue a notice
 * to the old address. After commit: `ctx.sessions.forget(id)` and `ctx.mailer.kick()`.
 */
export async function afterEmailChange(
  ctx: ServerContext,
  trx: Kysely<Database>,
  user: { id: number; oldEmail: string; newEmail: string },
  byAdmin: boolean,
): Promise<void> {
  await endSessions(trx, user.id, ctx.now());
  await trx
    .updateTable('one_time_codes')
    .set({ used_at: new Date() })
    .where('user_id', '=', user.id)
    .where('used_at', 'is', null)
    .execute();
  await trx
    .updateTable('outbox')
    .set({ status: 'failed', last_error: 'the account e-mail changed before it was sent' })
    .where('code_user_id', '=', user.id)
    .where('status', '=', 'pending')
    .execute();
  await ctx.mailer.queue(
    {
      to: user.oldEmail,
      subject: 'Your Fleet Manager sign-in e-mail was changed',
      body: [
        `The sign-in e-mail of your Fleet Manager account was changed from ${user.oldEmail} to ${user.newEmail}${byAdmin ? ' by an administrator' : ''}.`,
        'Every session of the account has been signed out.',
        'If you did not ask for this, contact your installer or the Fleet Manager administrator at once.',
      ].join('\n'),
    },
    trx,
  );
}
