import { Hono } from 'hono';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Page } from '../../contracts/page.ts';
import {
  accessCodeRequestSchema,
  createInstallerRequestSchema,
  createOwnerRequestSchema,
  type User,
  updateUserRequestSchema,
  userRoleSchema,
} from '../../contracts/users.ts';
import { MANAGERS, requireRole } from '../access/require-role.ts';
import { likePattern, requireVisibleUser, userVisible, type Viewer } from '../access/scope.ts';
import {
  requireAdminForCompanyAddress,
  requireMayEditUser,
  requireMayGiveRole,
} from '../access/user-rights.ts';
import { hashPassword } from '../auth/passwords.ts';
import { hitRateLimit } from '../auth/rate-limit.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { type Paging, readPaging } from '../http/paging.ts';
import { readBody, readInput } from '../http/validate.ts';
import { toUser } from '../mappers.ts';
import { afterEmailChange, authorizeEmailChange } from './email-change.ts';
import { listTarget } from './list-target.ts';
import { idParam } from './params.ts';
import { sendAccessCode } from './password-routes.ts';
import { uniqueEmail } from './unique-email.ts';

/** A condition on the `users` rows of a list. */
type UserFilter = (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool>;

/**
 * One page of the users that pass every filter (and match the search text), in id order, with
 * the number of users that match.
 */
async function userPage(db: Kysely<Database>, filters: UserFilter[], paging: Paging): Promise<Page<User>> {
  let query = db.selectFrom('users');
  for (const filter of filters) query = query.where(filter);
  if (paging.q) {
    const pattern = likePattern(paging.q);
    query = query.where((eb) =>
      eb.or([eb('main_email', 'ilike', pattern), eb('display_name', 'ilike', pattern)]),
    );
  }
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id').limit(paging.pageSize).offset(paging.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map(toUser),
    page: paging.page,
    pageSize: paging.pageSize,
    total: Number(count.total),
  };
}

/** Users: create installers, read, update, list by role or by manager, link, access codes. */
export function userRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.post(
    '/fleet/users/create-installer',
    requireRole(['admin'], 'Only an admin creates installers'),
    async (c) => {
      const caller = c.get('principal');
      const body = await readBody(c, createInstallerRequestSchema);
      const password_hash = body.password ? await hashPassword(body.password, ctx.scryptCost) : null;
      const user = await uniqueEmail(() =>
        db
          .insertInto('users')
          .values({
            main_email: body.main_email,
            display_name: body.name,
            phone: body.phone ?? null,
            role: 'installer',
            password_hash,
            created_by: caller.id,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      if (!body.password) await sendAccessCode(ctx, user);
      return c.json(toUser(user), 201);
    },
  );

  // Whether an address has an account, and that account when the caller may see it.
  const findVisible = async (caller: Viewer, email: string) => {
    const user = await db
      .selectFrom('users')
      .select(['id', 'main_email'])
      .where((eb) => eb(eb.fn('lower', ['main_email']), '=', email))
      .executeTakeFirst();
    if (!user) return { exists: false, visible: null };
    const visible = await db
      .selectFrom('users')
      .select('id')
      .where('id', '=', user.id)
      .where((eb) => userVisible(eb, caller))
      .executeTakeFirst();
    return { exists: true, visible: visible ? user : null };
  };

  // Every call that mails someone is limited per caller and per recipient address.
  const limitMail = (kind: string, callerId: number, email: string) =>
    hitRateLimit(db, [
      { key: `${kind}:caller:${callerId}`, limit: { limit: 30, windowSeconds: 3600 } },
      { key: `${kind}:to:${email}`, limit: { limit: 5, windowSeconds: 3600 } },
    ]);

  app.post('/fleet/users/create-owner', requireRole(MANAGERS, 'Owners cannot create users'), async (c) => {
    const caller = c.get('principal');
    const body = await readBody(c, createOwnerRequestSchema);
    requireAdminForCompanyAddress(caller, body.main_email, ctx.env.COMPANY_DOMAIN);
    await limitMail('create-owner', caller.id, body.main_email);
    // The same answer for a new address and for an account the caller cannot see: the existing
    // account gets a notice instead of an invitation, and the caller learns nothing.
    const accepted = () =>
      c.json({ message: `An invitation with an access code is on its way to ${body.main_email}` }, 202);
    const known = await findVisible(caller, body.main_email);
    if (known.visible)
      throw new ApiError(409, 'email_taken', 'A user with this e-mail exists already', 'main_email');
    if (known.exists) {
      await ctx.mailer.queue({
        to: body.main_email,
        subject: 'Someone tried to add you to Fleet Manager',
        body: [
          `${caller.name} tried to create a Fleet Manager account for ${body.main_email}, which already has one.`,
          'Nothing was changed. If you want them to manage your sites, ask them to contact you;',
          'if you forgot your password, choose "Forgot password" on the sign-in page.',
        ].join('\n'),
      });
      return accepted();
    }
    const user = await uniqueEmail(() =>
      db
        .insertInto('users')
        .values({
          main_email: body.main_email,
          display_name: body.name,
          phone: body.phone ?? null,
          role: 'owner',
          password_hash: null,
          created_by: caller.id,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    await sendAccessCode(ctx, user);
    return accepted();
  });

  app.post(
    '/fleet/users/access-code',
    requireRole(MANAGERS, 'Owners cannot send access codes'),
    async (c) => {
      const caller = c.get('principal');
      const { main_email } = await readBody(c, accessCodeRequestSchema);
      await limitMail('access-code', caller.id, main_email);
      // Mail only an account the caller manages; answer the same for any other address.
      const { visible } = await findVisible(caller, main_email);
      if (visible) await sendAccessCode(ctx, visible);
      return c.json(
        { message: `If ${main_email} is an account you manage, an access code is on its way` },
        202,
      );
    },
  );

  app.get('/fleet/user-list/:userId/:page', async (c) => {
    const { caller, target } = await listTarget(ctx, c);
    const filters: UserFilter[] = [(eb) => userVisible(eb, target)];
    if (caller.id !== target.id && caller.role !== 'admin') filters.push((eb) => userVisible(eb, caller));
    return c.json(await userPage(db, filters, readPaging(c)));
  });

  app.get('/users/role/:role', requireRole(MANAGERS, 'Owners cannot list users'), async (c) => {
    const caller = c.get('principal');
    const role = readInput(c.req.param('role'), userRoleSchema, 'role');
    const filters: UserFilter[] = [(eb) => eb('role', '=', role), (eb) => userVisible(eb, caller)];
    return c.json(await userPage(db, filters, readPaging(c)));
  });

  app.put('/users/installer/add/:a/:b', requireRole(MANAGERS, 'Owners cannot link installers'), async (c) => {
    const caller = c.get('principal');
    const userId = readInput(c.req.param('a'), idParam, 'a');
    const installerId = readInput(c.req.param('b'), idParam, 'b');
    await requireVisibleUser(db, caller, userId);
    const installer = await db
      .selectFrom('users')
      .select('role')
      .where('id', '=', installerId)
      .executeTakeFirst();
    if (!installer) throw notFound('Installer');
    if (installer.role !== 'installer')
      throw new ApiError(400, 'invalid_input', 'b: that user is not an installer', 'b');
    await db
      .insertInto('user_installers')
      .values({ user_id: userId, installer_id: installerId })
      .onConflict((oc) => oc.columns(['installer_id', 'user_id']).doNothing())
      .execute();
    return c.json({ userId, installerId });
  });

  app.get('/users/:id', async (c) => {
    const id = readInput(c.req.param('id'), idParam, 'id');
    return c.json(toUser(await requireVisibleUser(db, c.get('principal'), id)));
  });

  app.put('/users/:id', async (c) => {
    const caller = c.get('principal');
    const id = readInput(c.req.param('id'), idParam, 'id');
    const target = await requireVisibleUser(db, caller, id);
    requireMayEditUser(caller, target);
    const body = await readBody(c, updateUserRequestSchema);
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
            updated_at: new Date(),
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (newEmail) {
          const change = { id, oldEmail: target.main_email, newEmail: row.main_email };
          await afterEmailChange(ctx, trx, change, caller.role === 'admin');
        }
        return row;
      }),
    );
    if (newEmail) {
      ctx.sessions.forget(id);
      ctx.mailer.kick();
    }
    return c.json(toUser(user));
  });
  return app;
}
