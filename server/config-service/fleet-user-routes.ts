import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import {
  actorOf,
  isManager,
  mayCreateInstallers,
  mayJoinCompany,
  seesEverything,
} from '../../contracts/access-policy.ts';
import {
  acceptedSchema,
  accessCodeRequestSchema,
  createInstallerRequestSchema,
  createOwnerRequestSchema,
  userListQuerySchema,
  userPageSchema,
  userSchema,
} from '../../contracts/users.ts';
import { allowOnly } from '../access/allow-only.ts';
import { userVisible, type Viewer } from '../access/scope.ts';
import { requireAdminForCompanyAddress } from '../access/user-rights.ts';
import { hashPassword } from '../auth/passwords.ts';
import { hitRateLimit, type LimitCounter } from '../auth/rate-limit.ts';
import { joinCompanyOfAddress } from '../companies/memberships.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { toPaging } from '../http/paging.ts';
import { validate } from '../http/validate.ts';
import { quotedName } from '../mail/quoted-name.ts';
import { toUser } from '../mappers.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { listTarget, userPageParams } from './list-target.ts';
import { sendAccessCode } from './password-routes.ts';
import { uniqueEmail } from './unique-email.ts';
import { type UserFilter, userPage } from './user-list.ts';

/** Whether an address has an account, and that account when the caller may see it. */
async function findVisible(db: Kysely<Database>, caller: Viewer, email: string) {
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
}

/** Every call that mails someone is limited per caller and per recipient address. */
function limitMail(counter: LimitCounter, kind: string, callerId: number, email: string) {
  return hitRateLimit(counter, [
    { key: `${kind}:caller:${callerId}`, limit: { limit: 30, windowSeconds: 3600 } },
    { key: `${kind}:to:${email}`, limit: { limit: 5, windowSeconds: 3600 } },
  ]);
}

/**
 * Users a manager creates and looks after, mounted at `/fleet`: create installers and owners,
 * mail access codes, and the users a user sees.
 */
export function fleetUserRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.post(
    '/users/create-installer',
    describeRoute({
      summary: 'Create an installer (admin)',
      tag: 'users',
      example: { main_email: 'new.installer@example.com', name: 'New Installer', phone: '+1 512 555 0100' },
      responses: {
        201: { description: 'The user', schema: userSchema },
        403: { description: 'Not an admin' },
        409: { description: 'E-mail taken' },
      },
    }),
    allowOnly(mayCreateInstallers, 'Only an admin creates installers', 'admin_only'),
    validate('json', createInstallerRequestSchema),
    async (c) => {
      const caller = c.get('principal');
      const body = c.req.valid('json');
      const password_hash = body.password ? await hashPassword(body.password, ctx.scryptCost) : null;
      // An installer an admin creates joins the company of their e-mail domain (or starts one).
      const user = await uniqueEmail(() =>
        db.transaction().execute(async (trx) => {
          const made = await trx
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
            .executeTakeFirstOrThrow();
          if (mayJoinCompany(actorOf({ ...made, email: made.main_email }, ctx.env.COMPANY_DOMAIN)))
            await joinCompanyOfAddress(trx, made);
          return made;
        }),
      );
      if (!body.password) await sendAccessCode(ctx, user);
      return c.json(toUser(user), 201);
    },
  );

  app.post(
    '/users/create-owner',
    describeRoute({
      summary: 'Create a site owner managed by the caller',
      tag: 'users',
      example: { main_email: 'new.owner@example.com', name: 'New Owner' },
      responses: {
        202: {
          description: 'An invitation is on its way (also for an account the caller cannot see)',
          schema: acceptedSchema,
        },
        403: { description: 'Owners cannot' },
        409: { description: 'E-mail taken' },
        429: { description: 'Rate limited' },
      },
    }),
    allowOnly(isManager, 'Owners cannot create users'),
    validate('json', createOwnerRequestSchema),
    async (c) => {
      const caller = c.get('principal');
      const body = c.req.valid('json');
      requireAdminForCompanyAddress(caller, body.main_email, ctx.env.COMPANY_DOMAIN);
      await limitMail(ctx, 'create-owner', caller.id, body.main_email);
      // The same answer for a new address and for an account the caller cannot see: the existing
      // account gets a notice instead of an invitation, and the caller learns nothing.
      const accepted = () =>
        c.json({ message: `An invitation with an access code is on its way to ${body.main_email}` }, 202);
      const known = await findVisible(db, caller, body.main_email);
      if (known.visible)
        throw new ApiError(409, 'email_taken', 'A user with this e-mail exists already', 'main_email');
      if (known.exists) {
        await ctx.mailer.queue({
          to: body.main_email,
          subject: 'Someone tried to add you to Fleet Manager',
          body: [
            `${quotedName(caller.name)} tried to create a Fleet Manager account for this address, which already has one.`,
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
    },
  );

  app.post(
    '/users/access-code',
    describeRoute({
      summary: 'Mail an access code to a user the caller manages',
      tag: 'users',
      example: { main_email: 'owner@homeowner.example' },
      responses: {
        202: {
          description: 'Accepted, whether or not the caller manages the address',
          schema: acceptedSchema,
        },
        403: { description: 'Owners cannot' },
        429: { description: 'Rate limited' },
      },
    }),
    allowOnly(isManager, 'Owners cannot send access codes'),
    validate('json', accessCodeRequestSchema),
    async (c) => {
      const caller = c.get('principal');
      const { main_email } = c.req.valid('json');
      await limitMail(ctx, 'access-code', caller.id, main_email);
      // Mail only an account the caller manages; answer the same for any other address.
      const { visible } = await findVisible(db, caller, main_email);
      if (visible) await sendAccessCode(ctx, visible);
      return c.json(
        { message: `If ${main_email} is an account you manage, an access code is on its way` },
        202,
      );
    },
  );

  app.get(
    '/user-list/:userId/:page',
    describeRoute({
      summary: 'Users a user sees',
      tag: 'users',
      responses: {
        200: { description: 'A page of users', schema: userPageSchema },
        403: { description: 'Not yours' },
      },
    }),
    validate('param', userPageParams),
    validate('query', userListQuerySchema),
    async (c) => {
      const { userId, page } = c.req.valid('param');
      const { caller, target } = await listTarget(ctx, c.get('principal'), userId);
      const filters: UserFilter[] = [(eb) => userVisible(eb, target)];
      if (caller.id !== target.id && !seesEverything(caller)) filters.push((eb) => userVisible(eb, caller));
      return c.json(await userPage(db, filters, toPaging({ page, ...c.req.valid('query') })));
    },
  );
  return app;
}
