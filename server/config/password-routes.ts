import { Hono } from 'hono';
import { passwordChangeHeadersSchema, passwordResetRequestSchema } from '../../contracts/auth.ts';
import { createCode, spendCode } from '../auth/one-time-codes.ts';
import { hashPassword } from '../auth/passwords.ts';
import { hitRateLimit } from '../auth/rate-limit.ts';
import { revokeUserTokens } from '../auth/refresh-tokens.ts';
import type { ServerContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError } from '../http/errors.ts';
import { readBody, readInput } from '../http/validate.ts';

const WINDOW = 15 * 60;

/** Public password calls: `POST /users/password-reset` and `PUT /users/password` (headers, no body). */
export function passwordRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  const { db } = ctx;

  app.post('/users/password-reset', async (c) => {
    const { main_email } = await readBody(c, passwordResetRequestSchema);
    const email = main_email.toLowerCase();
    await hitRateLimit(db, [
      {
        key: `reset:address:${clientAddress(c, ctx.env.TRUST_PROXY)}`,
        limit: { limit: 20, windowSeconds: WINDOW },
      },
      { key: `reset:account:${email}`, limit: { limit: 3, windowSeconds: WINDOW } },
    ]);
    const user = await db
      .selectFrom('users')
      .select(['id', 'main_email'])
      .where((eb) => eb(eb.fn('lower', ['main_email']), '=', email))
      .executeTakeFirst();
    if (user) {
      const code = await createCode(db, user.id, 'reset');
      await ctx.mailer.send(
        user.main_email,
        'Your Fleet Manager access code',
        `Your access code is ${code}. It works once, within 30 minutes, to choose a new password.`,
      );
    }
    // The same answer whether or not the account exists.
    return c.json({ message: 'If the account exists, an access code is on its way' }, 202);
  });

  app.put('/users/password', async (c) => {
    const headers = readInput(
      {
        main_email: c.req.header('main_email') ?? c.req.header('main-email'),
        temp_code: c.req.header('temp_code') ?? c.req.header('temp-code'),
        new_password: c.req.header('new_password') ?? c.req.header('new-password'),
      },
      passwordChangeHeadersSchema,
      'headers',
    );
    const email = headers.main_email.toLowerCase();
    await hitRateLimit(db, [
      {
        key: `code:address:${clientAddress(c, ctx.env.TRUST_PROXY)}`,
        limit: { limit: 30, windowSeconds: WINDOW },
      },
      { key: `code:account:${email}`, limit: { limit: 5, windowSeconds: WINDOW } },
    ]);
    const user = await db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['main_email']), '=', email))
      .executeTakeFirst();
    if (!user || !(await spendCode(db, user.id, headers.temp_code))) {
      throw new ApiError(400, 'invalid_code', 'The access code is wrong, used or expired', 'temp_code');
    }
    const hash = await hashPassword(headers.new_password, ctx.scryptCost);
    await db
      .updateTable('users')
      .set({ password_hash: hash, updated_at: new Date() })
      .where('id', '=', user.id)
      .execute();
    await revokeUserTokens(db, user.id);
    return c.body(null, 204);
  });
  return app;
}

/** E-mail a new access code to a user (installer onboarding, or on a manager's request). */
export async function sendAccessCode(
  ctx: ServerContext,
  user: { id: number; main_email: string },
): Promise<void> {
  const code = await createCode(ctx.db, user.id, 'access');
  await ctx.mailer.send(
    user.main_email,
    'Your Fleet Manager access code',
    `Your access code is ${code}. Use it within 3 days, once, to choose your password.`,
  );
}
