import { Hono } from 'hono';
import { passwordChangeHeadersSchema, passwordResetRequestSchema } from '../../contracts/auth.ts';
import { acceptedSchema } from '../../contracts/users.ts';
import { beginAttempt, type FailurePolicy } from '../auth/failure-limits.ts';
import { spendCode } from '../auth/one-time-codes.ts';
import { hashPassword } from '../auth/passwords.ts';
import { hitRateLimit } from '../auth/rate-limit.ts';
import { endSessions } from '../auth/sessions.ts';
import type { ServerContext } from '../context.ts';
import { publicAppUrl } from '../env.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { codeMail } from '../mail/code-mail.ts';
import { describeRoute } from '../openapi/route-notes.ts';

const WINDOW = 15 * 60;

/** Wrong codes counted per 15 minutes (see failure-limits.ts); 8-digit codes allow few guesses. */
const CODE_POLICY: FailurePolicy = {
  name: 'code',
  refusal: (wait) => `Too many wrong access codes; try again ${wait}, with the code from your newest mail.`,
  windowSeconds: WINDOW,
  perSource: 5,
  perAddress: 30,
  ceiling: 100,
};

/**
 * Public password calls, mounted at `/users`: `POST /users/password-reset` and `PUT /users/password`
 * (headers, no body).
 */
export function passwordRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  const { db } = ctx;

  app.post(
    '/password-reset',
    describeRoute({
      summary: 'Mail an access code to choose a new password',
      tag: 'password',
      example: { main_email: 'owner@homeowner.example' },
      responses: {
        202: { description: 'Accepted, whether or not the account exists', schema: acceptedSchema },
        429: { description: 'Rate limited' },
      },
    }),
    validate('json', passwordResetRequestSchema),
    async (c) => {
      const { main_email } = c.req.valid('json');
      const email = main_email.toLowerCase();
      await hitRateLimit(ctx, [
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
      // Queued, never sent here: the answer and its timing do not depend on the account or on SMTP.
      if (user) await ctx.mailer.queue(codeMail(publicAppUrl(ctx.env), user, 'reset'));
      return c.json({ message: 'If the account exists, an access code is on its way' }, 202);
    },
  );

  app.put(
    '/password',
    describeRoute({
      summary: 'Choose a new password with an access code (headers, no body)',
      tag: 'password',
      responses: {
        204: { description: 'Password changed; every refresh token revoked' },
        429: { description: 'Too many wrong codes' },
      },
    }),
    validate('header', passwordChangeHeadersSchema),
    async (c) => {
      const headers = c.req.valid('header');
      const email = headers.main_email.toLowerCase();
      const attempt = await beginAttempt(ctx, CODE_POLICY, email, clientAddress(c, ctx.env.TRUST_PROXY));
      const user = await db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['main_email']), '=', email))
        .executeTakeFirst();
      if (!user || !(await spendCode(db, ctx.codeKey, user.id, headers.temp_code, ctx.now))) {
        throw new ApiError(400, 'invalid_code', 'The access code is wrong, used or expired', 'temp_code');
      }
      await attempt.succeeded();
      const hash = await hashPassword(headers.new_password, ctx.scryptCost);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: hash, updated_at: new Date() })
          .where('id', '=', user.id)
          .execute();
        await endSessions(trx, user.id, ctx.now());
      });
      ctx.sessions.forget(user.id);
      return c.body(null, 204);
    },
  );
  return app;
}

/** Queue a new access code for a user (installer onboarding, or on a manager's request). */
export async function sendAccessCode(
  ctx: ServerContext,
  user: { id: number; main_email: string },
): Promise<void> {
  await ctx.mailer.queue(codeMail(publicAppUrl(ctx.env), user, 'access'));
}
