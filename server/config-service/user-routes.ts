import { Hono } from 'hono';
import { z } from 'zod';
import { isAdmin, isInstaller, isManager } from '../../contracts/access-policy.ts';
import { idParamSchema, idSchema } from '../../contracts/ids.ts';
import {
  updateUserRequestSchema,
  userListQuerySchema,
  userPageSchema,
  userRoleSchema,
  userSchema,
} from '../../contracts/users.ts';
import { allowOnly } from '../access/allow-only.ts';
import { requireVisibleUser, userVisible } from '../access/scope.ts';
import { requireMayEditUser, requireMayGiveRole } from '../access/user-rights.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { pageQuery, toPaging } from '../http/paging.ts';
import { validate } from '../http/validate.ts';
import { toUser } from '../mappers.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { afterEmailChange, authorizeEmailChange } from './email-change.ts';
import { idParams } from './params.ts';
import { uniqueEmail } from './unique-email.ts';
import { userPage } from './user-list.ts';

/** Users, mounted at `/users` after the public password calls: by role, linking, read, update. */
export function userRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.get(
    '/role/:role',
    describeRoute({
      summary: 'Users of one role that the caller sees',
      tag: 'users',
      responses: {
        200: { description: 'A page of users', schema: userPageSchema },
        403: { description: 'Owners cannot' },
      },
    }),
    allowOnly(isManager, 'Owners cannot list users'),
    validate('param', z.object({ role: userRoleSchema })),
    validate('query', userListQuerySchema.extend(pageQuery)),
    async (c) => {
      const caller = c.get('principal');
      const { role } = c.req.valid('param');
      return c.json(
        await userPage(
          db,
          [(eb) => eb('role', '=', role), (eb) => userVisible(eb, caller)],
          toPaging(c.req.valid('query')),
        ),
      );
    },
  );

  app.put(
    '/installer/add/:a/:b',
    describeRoute({
      summary: 'Link user a to installer b',
      tag: 'users',
      responses: {
        200: { description: 'The link', schema: z.object({ userId: idSchema, installerId: idSchema }) },
        403: { description: 'Owners cannot, nor anyone who cannot see user a' },
        404: { description: 'No such user' },
      },
    }),
    allowOnly(isManager, 'Owners cannot link installers'),
    validate('param', z.object({ a: idParamSchema, b: idParamSchema })),
    async (c) => {
      const { a: userId, b: installerId } = c.req.valid('param');
      await requireVisibleUser(db, c.get('principal'), userId);
      const installer = await db
        .selectFrom('users')
        .select('role')
        .where('id', '=', installerId)
        .executeTakeFirst();
      if (!installer) throw notFound('Installer');
      if (!isInstaller(installer))
        throw new ApiError(400, 'invalid_input', 'b: that user is not an installer', 'b');
      await db
        .insertInto('user_installers')
        .values({ user_id: userId, installer_id: installerId })
        .onConflict((oc) => oc.columns(['installer_id', 'user_id']).doNothing())
        .execute();
      return c.json({ userId, installerId });
    },
  );

  app.get(
    '/:id',
    describeRoute({
      summary: 'A user',
      tag: 'users',
      responses: {
        200: { description: 'The user', schema: userSchema },
        403: { description: 'Not yours to see' },
        404: { description: 'No such user' },
      },
    }),
    validate('param', idParams),
    async (c) => c.json(toUser(await requireVisibleUser(db, c.get('principal'), c.req.valid('param').id))),
  );

  app.put(
    '/:id',
    describeRoute({
      summary: 'Change a user',
      tag: 'users',
      example: { name: 'Olivia Homeowner', phone: '+1 512 555 0199' },
      responses: {
        200: { description: 'The user', schema: userSchema },
        403: { description: 'Not yours to change, or a change only an admin makes' },
        404: { description: 'No such user' },
        409: { description: 'E-mail taken' },
      },
    }),
    validate('param', idParams),
    validate('json', updateUserRequestSchema),
    async (c) => {
      const caller = c.get('principal');
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const target = await requireVisibleUser(db, caller, id);
      requireMayEditUser(caller, target);
      requireMayGiveRole(caller, target, body.role);
      const newEmail =
        body.main_email !== undefined && body.main_email.toLowerCase() !== target.main_email.toLowerCase()
          ? body.main_email
          : undefined;
      if (newEmail) await authorizeEmailChange(ctx, c, caller, target, newEmail, body.current_password);
      const user = await uniqueEmail(() =>
        db.transaction().execute(async (trx) => {
          const row = await trx
            .updateTable('users')
            .set({
              ...(newEmail !== undefined && { main_email: newEmail }),
              ...(body.name !== undefined && { display_name: body.name }),
              ...(body.phone !== undefined && { phone: body.phone }),
              ...(body.role !== undefined && { role: body.role }),
              ...(body.alarmMail !== undefined && { alarm_mail: body.alarmMail }),
              updated_at: new Date(),
            })
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirstOrThrow();
          if (newEmail) {
            const change = { id, oldEmail: target.main_email, newEmail: row.main_email };
            await afterEmailChange(ctx, trx, change, isAdmin(caller));
          }
          return row;
        }),
      );
      if (newEmail) {
        ctx.sessions.forget(id);
        ctx.mailer.kick();
      }
      return c.json(toUser(user));
    },
  );
  return app;
}
