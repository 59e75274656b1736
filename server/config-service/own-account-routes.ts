import { Hono } from 'hono';
import { ownPasswordChangeSchema, profileUpdateSchema, userSchema } from '../../contracts/users.ts';
import { requireSignedInPerson } from '../access/user-rights.ts';
import { hashPassword } from '../auth/passwords.ts';
import { endSessions } from '../auth/sessions.ts';
import type { ServerContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { toUser } from '../mappers.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { checkCurrentPassword } from './email-change.ts';

/**
 * The signed-in user's own account, mounted at `/users` behind the Bearer check: `PUT
 * /users/me/password` (with the current password) and `PUT /users/me/profile` (name and phone).
 * Both act on the token's user only, so they need no check of who may change whom.
 */
export function ownAccountRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  const loadSelf = async (id: number) => {
    const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    if (!user) throw notFound('User');
    return user;
  };

  app.put(
    '/me/password',
    describeRoute({
      summary: 'Change your own password, giving the current one; ends every session',
      tag: 'users',
      example: { current_password: 'Current#2026', new_password: 'Sunny-roof#2027' },
      responses: {
        204: { description: 'Changed; every session of the user, this one too, has ended' },
        403: {
          description:
            'The current password is wrong (current_password_wrong), or the call came with an API key',
        },
        429: { description: 'Too many wrong passwords' },
      },
    }),
    (c, next) => {
      requireSignedInPerson(c.get('principal'));
      return next();
    },
    validate('json', ownPasswordChangeSchema),
    async (c) => {
      const me = await loadSelf(c.get('principal').id);
      const body = c.req.valid('json');
      await checkCurrentPassword(ctx, c, me, body.current_password);
      const hash = await hashPassword(body.new_password, ctx.scryptCost);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: hash, updated_at: new Date() })
          .where('id', '=', me.id)
          .execute();
        await endSessions(trx, me.id, ctx.now());
        await ctx.mailer.queue(
          {
            to: me.main_email,
            subject: 'Your Fleet Manager password was changed',
            body: [
              'The password of your Fleet Manager account was changed, and every session of the account was signed out.',
              'If you did not do this, choose "Forgot password?" on the sign-in page at once to choose a new one, and tell your installer or the Fleet Manager administrator.',
            ].join('\n'),
          },
          trx,
        );
      });
      ctx.sessions.forget(me.id);
      ctx.mailer.kick();
      return c.body(null, 204);
    },
  );

  app.put(
    '/me/profile',
    describeRoute({
      summary: 'Change your own name and phone',
      tag: 'users',
      example: { name: 'Olivia Homeowner', phone: '+1 512 555 0199' },
      responses: { 200: { description: 'The user', schema: userSchema } },
    }),
    validate('json', profileUpdateSchema),
    async (c) => {
      const body = c.req.valid('json');
      const row = await db
        .updateTable('users')
        .set({ display_name: body.name, phone: body.phone, updated_at: new Date() })
        .where('id', '=', c.get('principal').id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('User');
      return c.json(toUser(row));
    },
  );
  return app;
}
