import { createHash, randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { type Membership, mayJoinCompany, mayRunCompany } from '../../contracts/access-policy.ts';
import {
  acceptedInvitationSchema,
  companyDetailsSchema,
  companyItemParamSchema,
  companyRoleWithArticle,
  companySchema,
  INVITATION_DAYS,
  invitationRequestSchema,
  invitationTokenSchema,
  invitationViewSchema,
  joinRequestSchema,
  logoUploadSchema,
  memberRoleRequestSchema,
  myCompanySchema,
} from '../../contracts/companies.ts';
import { isCompanyStaffEmail } from '../../contracts/company-staff.ts';
import { hashPassword } from '../auth/passwords.ts';
import { hitRateLimit, type LimitCounter } from '../auth/rate-limit.ts';
import { printableImage } from '../commissioning/report-pdf.ts';
import { uniqueEmail } from '../config-service/unique-email.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { publicAppUrl } from '../env.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { acceptHandover, decidingMembership, handoversTo } from './handovers.ts';
import { joinCompany, leaveCompany, membershipOf, setMemberRole } from './memberships.ts';

/** The app's screen an invitation link opens; the secret rides in the fragment, never in a log. */
export const INVITATION_PATH = '/invitation';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const iso = (value: Date | string) => new Date(value).toISOString();
const tokenBody = z.object({ token: invitationTokenSchema });

/** The caller's company membership, or 404 for someone in none. */
async function requireMembership(db: Kysely<Database>, userId: number): Promise<Membership> {
  const membership = await membershipOf(db, userId);
  if (!membership) throw notFound('Company');
  return membership;
}

/** The caller runs their company (an admin of it), or 403. */
async function requireRunning(db: Kysely<Database>, userId: number): Promise<Membership> {
  const membership = await requireMembership(db, userId);
  if (!mayRunCompany(membership))
    throw forbidden("Only the company's admins change its members and details", 'company_admin_only');
  return membership;
}

/** The company keeps at least one admin: 409 when a change would leave it none. */
async function keepAnAdmin(trx: Kysely<Database>, companyId: number): Promise<void> {
  const members = await trx
    .selectFrom('company_members')
    .select('role')
    .where('company_id', '=', companyId)
    .forUpdate()
    .execute();
  if (!members.some((member) => mayRunCompany({ companyId, role: member.role })))
    throw new ApiError(
      409,
      'last_company_admin',
      'The company needs at least one admin; make someone else admin first',
    );
}

async function companyView(db: Kysely<Database>, membership: Membership) {
  const company = await db
    .selectFrom('companies')
    .select(['id', 'name', 'address', 'logo_type'])
    .where('id', '=', membership.companyId)
    .executeTakeFirstOrThrow();
  const members = await db
    .selectFrom('company_members')
    .innerJoin('users', 'users.id', 'company_members.user_id')
    .select([
      'users.id',
      'users.display_name',
      'users.main_email',
      'company_members.role',
      'company_members.joined_at',
    ])
    .where('company_members.company_id', '=', membership.companyId)
    .orderBy('users.display_name')
    .orderBy('users.id')
    .execute();
  const invitations = mayRunCompany(membership)
    ? await db
        .selectFrom('company_invitations')
        .leftJoin('users', 'users.id', 'company_invitations.invited_by')
        .select([
          'company_invitations.id',
          'company_invitations.email',
          'company_invitations.role',
          'company_invitations.created_at',
          'company_invitations.expires_at',
          'users.display_name as invited_by',
        ])
        .where('company_invitations.company_id', '=', membership.companyId)
        .where('company_invitations.accepted_at', 'is', null)
        .where('company_invitations.revoked_at', 'is', null)
        .orderBy('company_invitations.id', 'desc')
        .execute()
    : [];
  return {
    company: {
      id: company.id,
      name: company.name,
      address: company.address,
      hasLogo: company.logo_type !== null,
    },
    role: membership.role,
    members: members.map((m) => ({
      userId: m.id,
      name: m.display_name,
      email: m.main_email,
      role: m.role,
      joinedAt: iso(m.joined_at),
    })),
    handovers: mayRunCompany(membership) ? await handoversTo(db, membership.companyId) : [],
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      invitedBy: i.invited_by ?? null,
      createdAt: iso(i.created_at),
      expiresAt: iso(i.expires_at),
    })),
  };
}

/**
 * An open invitation by its link's secret at `now` (the server's clock), or 404 (unknown, used,
 * withdrawn or run out alike).
 */
async function openInvitation(db: Kysely<Database>, token: string, now: number) {
  const row = await db
    .selectFrom('company_invitations')
    .innerJoin('companies', 'companies.id', 'company_invitations.company_id')
    .select([
      'company_invitations.id',
      'company_invitations.company_id',
      'company_invitations.email',
      'company_invitations.role',
      'company_invitations.expires_at',
      'companies.name as company',
    ])
    .where('company_invitations.token_hash', '=', hashToken(token))
    .where('company_invitations.accepted_at', 'is', null)
    .where('company_invitations.revoked_at', 'is', null)
    .where('company_invitations.expires_at', '>', new Date(now))
    .executeTakeFirst();
  if (!row)
    throw new ApiError(
      404,
      'invitation_not_found',
      'This invitation is not valid any more; ask for a new one',
    );
  return row;
}

async function accountOf(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'role', 'main_email'])
    .where((eb) => eb(eb.fn('lower', ['main_email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

/** Every try of an invitation link is limited per address, so a link cannot be guessed. */
function limitTries(counter: LimitCounter, ip: string) {
  return hitRateLimit(counter, [{ key: `invitation:ip:${ip}`, limit: { limit: 60, windowSeconds: 600 } }]);
}

/**
 * Installer companies for their members, mounted at `/companies` (signed in): the caller's company
 * with its members and invitations, its details, invitations by mail, company roles, removal, and
 * accepting an invitation with an account that exists.
 */
export function companyRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.get(
    '/mine',
    describeRoute({
      summary: "The caller's company: details, their role, members and (for its admins) open invitations",
      tag: 'companies',
      responses: {
        200: { description: 'The company', schema: myCompanySchema },
        404: { description: 'The caller belongs to no company' },
      },
    }),
    async (c) => c.json(await companyView(db, await requireMembership(db, c.get('principal').id))),
  );

  app.put(
    '/mine',
    describeRoute({
      summary: "Change the company's name and address (its admins)",
      tag: 'companies',
      example: { name: 'Solar Pros Ltd', address: '12 Harbour Rd, Cape Town' },
      responses: {
        200: { description: 'The company', schema: companySchema },
        403: { description: 'Not an admin of the company' },
        404: { description: 'The caller belongs to no company' },
      },
    }),
    validate('json', companyDetailsSchema),
    async (c) => {
      const membership = await requireRunning(db, c.get('principal').id);
      const body = c.req.valid('json');
      const row = await db
        .updateTable('companies')
        .set({ name: body.name, address: body.address, updated_at: new Date() })
        .where('id', '=', membership.companyId)
        .returning(['id', 'name', 'address', 'logo_type'])
        .executeTakeFirstOrThrow();
      return c.json({ id: row.id, name: row.name, address: row.address, hasLogo: row.logo_type !== null });
    },
  );

  app.put(
    '/mine/logo',
    describeRoute({
      summary:
        "Set the company's logo, printed on the commissioning report (its admins): PNG or JPEG, base64",
      tag: 'companies',
      example: { type: 'image/png', data: 'iVBORw0KGgo…' },
      responses: {
        200: { description: 'The company', schema: companySchema },
        403: { description: 'Not an admin of the company' },
        422: { description: 'Not a PNG or JPEG the report can print (logo_unreadable)' },
      },
    }),
    validate('json', logoUploadSchema),
    async (c) => {
      const membership = await requireRunning(db, c.get('principal').id);
      const body = c.req.valid('json');
      const bytes = Buffer.from(body.data, 'base64');
      const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const jpeg = bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));
      const matches = body.type === 'image/png' ? png : jpeg;
      if (!matches || !(await printableImage(`data:${body.type};base64,${body.data}`)))
        throw new ApiError(
          422,
          'logo_unreadable',
          'The file is not a PNG or JPEG image the report can print',
          'data',
        );
      const row = await db
        .updateTable('companies')
        .set({ logo: bytes, logo_type: body.type, updated_at: new Date() })
        .where('id', '=', membership.companyId)
        .returning(['id', 'name', 'address', 'logo_type'])
        .executeTakeFirstOrThrow();
      return c.json({ id: row.id, name: row.name, address: row.address, hasLogo: row.logo_type !== null });
    },
  );

  app.delete(
    '/mine/logo',
    describeRoute({
      summary: "Take the company's logo off its reports (its admins)",
      tag: 'companies',
      responses: {
        200: { description: 'The company', schema: companySchema },
        403: { description: 'Not an admin of the company' },
      },
    }),
    async (c) => {
      const membership = await requireRunning(db, c.get('principal').id);
      const row = await db
        .updateTable('companies')
        .set({ logo: null, logo_type: null, updated_at: new Date() })
        .where('id', '=', membership.companyId)
        .returning(['id', 'name', 'address', 'logo_type'])
        .executeTakeFirstOrThrow();
      return c.json({ id: row.id, name: row.name, address: row.address, hasLogo: false });
    },
  );

  app.get(
    '/mine/logo',
    describeRoute({
      summary: "The company's logo (its members)",
      tag: 'companies',
      responses: {
        200: { description: 'The image (PNG or JPEG)' },
        404: { description: 'No company, or no logo' },
      },
    }),
    async (c) => {
      const membership = await requireMembership(db, c.get('principal').id);
      const row = await db
        .selectFrom('companies')
        .select(['logo', 'logo_type'])
        .where('id', '=', membership.companyId)
        .executeTakeFirstOrThrow();
      if (!row.logo || !row.logo_type) throw notFound('Logo');
      c.header('Content-Type', row.logo_type);
      c.header('Cache-Control', 'private, no-cache');
      return c.body(new Uint8Array(row.logo));
    },
  );

  app.post(
    '/mine/invitations',
    describeRoute({
      summary: 'Invite someone by mail to join the company with a role (its admins)',
      tag: 'companies',
      example: { email: 'new.colleague@solarpros.example', role: 'installer' },
      responses: {
        201: { description: 'The company, with the invitation', schema: myCompanySchema },
        403: { description: 'Not an admin of the company' },
        409: { description: 'Already a member, or an invitation to that address is open (invitation_open)' },
        422: { description: 'A staff or site-owner address, which joins no company (cannot_join)' },
        429: { description: 'Too many invitations' },
      },
    }),
    validate('json', invitationRequestSchema),
    async (c) => {
      const caller = c.get('principal');
      const membership = await requireRunning(db, caller.id);
      const body = c.req.valid('json');
      if (isCompanyStaffEmail(body.email, ctx.env.COMPANY_DOMAIN))
        throw new ApiError(422, 'cannot_join', 'Company staff belong to no installer company', 'email');
      const account = await accountOf(db, body.email);
      if (account && !mayJoinCompany({ role: account.role, staff: false }))
        throw new ApiError(
          422,
          'cannot_join',
          'A site owner’s account cannot join an installer company',
          'email',
        );
      if (account && (await membershipOf(db, account.id))?.companyId === membership.companyId)
        throw new ApiError(409, 'already_member', `${body.email} is a member already`, 'email');
      await hitRateLimit(ctx, [
        { key: `invite:caller:${caller.id}`, limit: { limit: 30, windowSeconds: 3600 } },
        { key: `invite:to:${body.email}`, limit: { limit: 5, windowSeconds: 3600 } },
      ]);
      const token = randomBytes(32).toString('base64url');
      const now = ctx.now();
      const company = await db
        .selectFrom('companies')
        .select('name')
        .where('id', '=', membership.companyId)
        .executeTakeFirstOrThrow();
      try {
        await db.transaction().execute(async (trx) => {
          // An invitation to the address that ran out unanswered holds it no longer: it ended when
          // it ran out, and the new one takes its place (the list shows open invitations only).
          await trx
            .updateTable('company_invitations')
            .set((eb) => ({ revoked_at: eb.ref('expires_at') }))
            .where('company_id', '=', membership.companyId)
            .where(sql<string>`lower(email)`, '=', body.email.toLowerCase())
            .where('accepted_at', 'is', null)
            .where('revoked_at', 'is', null)
            .where('expires_at', '<=', new Date(now))
            .execute();
          await trx
            .insertInto('company_invitations')
            .values({
              company_id: membership.companyId,
              email: body.email,
              role: body.role,
              token_hash: hashToken(token),
              invited_by: caller.id,
              created_at: new Date(now),
              expires_at: new Date(now + INVITATION_DAYS * 86_400_000),
            })
            .execute();
          const link = `${publicAppUrl(ctx.env)}${INVITATION_PATH}#token=${token}`;
          await ctx.mailer.queue(
            {
              to: body.email,
              subject: `${caller.name} invites you to ${company.name} on Fleet Manager`,
              body: [
                `${caller.name} (${caller.email}) invites you to join ${company.name} on Fleet Manager as ${companyRoleWithArticle(body.role)}.`,
                '',
                'Open this link to accept:',
                link,
                '',
                account
                  ? 'You sign in with your Fleet Manager account to accept. A person belongs to one company at a time: accepting takes you out of the one you are in, and its sites with it.'
                  : 'You choose your name and a password there; your account is made when you accept.',
                `The link works once, for ${INVITATION_DAYS} days. If you did not expect it, ignore this mail.`,
              ].join('\n'),
            },
            trx,
          );
        });
      } catch (error) {
        if ((error as { code?: string }).code === '23505')
          throw new ApiError(
            409,
            'invitation_open',
            `An invitation to ${body.email} is open already`,
            'email',
          );
        throw error;
      }
      ctx.mailer.kick();
      return c.json(await companyView(db, membership), 201);
    },
  );

  app.delete(
    '/mine/invitations/:id',
    describeRoute({
      summary: 'Withdraw an open invitation (its admins); its link stops working',
      tag: 'companies',
      responses: {
        200: { description: 'The company', schema: myCompanySchema },
        403: { description: 'Not an admin of the company' },
        404: { description: 'No such open invitation of the company' },
      },
    }),
    validate('param', companyItemParamSchema),
    async (c) => {
      const membership = await requireRunning(db, c.get('principal').id);
      const done = await db
        .updateTable('company_invitations')
        .set({ revoked_at: new Date(ctx.now()) })
        .where('id', '=', c.req.valid('param').id)
        .where('company_id', '=', membership.companyId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (done.numUpdatedRows === 0n) throw notFound('Invitation');
      return c.json(await companyView(db, membership));
    },
  );

  app.put(
    '/mine/members/:id',
    describeRoute({
      summary: 'Give a member another company role (its admins); the company keeps an admin',
      tag: 'companies',
      example: { role: 'admin' },
      responses: {
        200: { description: 'The company', schema: myCompanySchema },
        403: { description: 'Not an admin of the company' },
        404: { description: 'No such member of the company' },
        409: { description: 'It would leave the company without an admin (last_company_admin)' },
      },
    }),
    validate('param', companyItemParamSchema),
    validate('json', memberRoleRequestSchema),
    async (c) => {
      const membership = await requireRunning(db, c.get('principal').id);
      const userId = c.req.valid('param').id;
      const { role } = c.req.valid('json');
      const changed = await db.transaction().execute(async (trx) => {
        const member = await membershipOf(trx, userId);
        if (member?.companyId !== membership.companyId) throw notFound('Member');
        const sites = await setMemberRole(trx, userId, membership.companyId, role);
        await keepAnAdmin(trx, membership.companyId);
        return sites;
      });
      if (changed.length > 0) await ctx.monitoring.live.announce({ sites: changed });
      return c.json(await companyView(db, await requireMembership(db, c.get('principal').id)));
    },
  );

  app.delete(
    '/mine/members/:id',
    describeRoute({
      summary:
        "Remove a member (its admins; anyone, themself): they lose the company's sites at once, the sites stay",
      tag: 'companies',
      responses: {
        200: { description: 'The company as it is now (for one who left: 204)', schema: myCompanySchema },
        204: { description: 'The caller left the company' },
        403: { description: 'Not an admin of the company' },
        404: { description: 'No such member of the company' },
        409: { description: 'It would leave the company without an admin (last_company_admin)' },
      },
    }),
    validate('param', companyItemParamSchema),
    async (c) => {
      const caller = c.get('principal');
      const userId = c.req.valid('param').id;
      const membership =
        userId === caller.id ? await requireMembership(db, caller.id) : await requireRunning(db, caller.id);
      const lost = await db.transaction().execute(async (trx) => {
        const member = await membershipOf(trx, userId);
        if (member?.companyId !== membership.companyId) throw notFound('Member');
        const sites = (await leaveCompany(trx, userId)) ?? [];
        await keepAnAdmin(trx, membership.companyId);
        return sites;
      });
      await ctx.monitoring.live.announce({ sites: lost, users: [userId] });
      if (userId === caller.id) return c.body(null, 204);
      return c.json(await companyView(db, membership));
    },
  );

  app.post(
    '/mine/handovers/:id/accept',
    describeRoute({
      summary:
        'Accept a site offered to the company (its admins): the site is the company’s, the old company loses it, its past stays marked with who held it',
      tag: 'companies',
      responses: {
        200: { description: 'The company', schema: myCompanySchema },
        403: { description: 'Not an admin of the company' },
        404: { description: 'No such open offer to the company' },
      },
    }),
    validate('param', companyItemParamSchema),
    async (c) => {
      const caller = c.get('principal');
      const membership = await decidingMembership(db, caller.id);
      const siteId = await db
        .transaction()
        .execute((trx) => acceptHandover(trx, c.req.valid('param').id, membership.companyId, caller.id));
      await ctx.monitoring.live.announce({ sites: [siteId] });
      return c.json(await companyView(db, membership));
    },
  );

  app.post(
    '/mine/handovers/:id/decline',
    describeRoute({
      summary: 'Decline a site offered to the company (its admins)',
      tag: 'companies',
      responses: {
        200: { description: 'The company', schema: myCompanySchema },
        403: { description: 'Not an admin of the company' },
        404: { description: 'No such open offer to the company' },
      },
    }),
    validate('param', companyItemParamSchema),
    async (c) => {
      const caller = c.get('principal');
      const membership = await decidingMembership(db, caller.id);
      const done = await db
        .updateTable('site_handovers')
        .set({ outcome: 'declined', decided_by: caller.id, decided_at: new Date() })
        .where('id', '=', c.req.valid('param').id)
        .where('to_company_id', '=', membership.companyId)
        .where('outcome', 'is', null)
        .executeTakeFirst();
      if (done.numUpdatedRows === 0n) throw notFound('Handover');
      return c.json(await companyView(db, membership));
    },
  );

  app.post(
    '/invitations/accept',
    describeRoute({
      summary:
        'Accept an invitation to the signed-in account (its address): join the company, leaving the one the caller was in',
      tag: 'companies',
      example: { token: 'the secret of the link, 43 characters' },
      responses: {
        200: { description: 'The company joined', schema: myCompanySchema },
        403: { description: 'The invitation is to another address (invitation_other_address)' },
        404: { description: 'No such open invitation' },
        409: { description: 'The caller is the last admin of their company (last_company_admin)' },
        422: { description: 'Company staff and site owners join no company (cannot_join)' },
      },
    }),
    validate('json', tokenBody),
    async (c) => {
      const caller = c.get('principal');
      await limitTries(ctx, `user:${caller.id}`);
      const now = ctx.now();
      const invitation = await openInvitation(db, c.req.valid('json').token, now);
      if (invitation.email.toLowerCase() !== caller.email.toLowerCase())
        throw forbidden(
          `This invitation is for ${invitation.email}; sign in with that address to accept it`,
          'invitation_other_address',
        );
      if (!mayJoinCompany(caller))
        throw new ApiError(422, 'cannot_join', 'Your account cannot join an installer company');
      const lost = await db.transaction().execute(async (trx) => {
        const before = await membershipOf(trx, caller.id);
        const sites = await accept(trx, invitation, caller.id, now);
        if (before && before.companyId !== invitation.company_id) await keepAnAdmin(trx, before.companyId);
        return sites;
      });
      if (lost.length > 0) await ctx.monitoring.live.announce({ sites: lost });
      return c.json(await companyView(db, await requireMembership(db, caller.id)));
    },
  );

  return app;
}

/**
 * Mark an invitation used at `now` (the server's clock, the time it was found open at) and make
 * the user a member; the one accepting first wins.
 */
async function accept(
  trx: Kysely<Database>,
  invitation: { id: number; company_id: number; role: Membership['role'] },
  userId: number,
  now: number,
): Promise<number[]> {
  const used = await trx
    .updateTable('company_invitations')
    .set({ accepted_at: new Date(now), accepted_by: userId })
    .where('id', '=', invitation.id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (used.numUpdatedRows === 0n)
    throw new ApiError(
      404,
      'invitation_not_found',
      'This invitation is not valid any more; ask for a new one',
    );
  return joinCompany(trx, userId, invitation.company_id, invitation.role);
}

/**
 * What the holder of an invitation link may do before signing in, mounted at `/auth/invitations`
 * (behind the api-key only, public like the sign-in calls): read what it offers, and, for an
 * address with no account yet, make the account and join in one step.
 */
export function invitationRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.post(
    '/view',
    describeRoute({
      summary:
        'What an invitation link offers: the company, the address, the role, whether the address has an account',
      tag: 'companies',
      example: { token: 'the secret of the link, 43 characters' },
      responses: {
        200: { description: 'The invitation', schema: invitationViewSchema },
        404: { description: 'Unknown, used, withdrawn or run out (invitation_not_found)' },
        429: { description: 'Too many tries' },
      },
    }),
    validate('json', tokenBody),
    async (c) => {
      await limitTries(ctx, clientAddress(c, ctx.env.TRUST_PROXY));
      const invitation = await openInvitation(db, c.req.valid('json').token, ctx.now());
      return c.json({
        company: invitation.company,
        email: invitation.email,
        role: invitation.role,
        account: (await accountOf(db, invitation.email)) !== undefined,
        expiresAt: iso(invitation.expires_at),
      });
    },
  );

  app.post(
    '/join',
    describeRoute({
      summary: 'Accept an invitation to an address with no account: make the account (an installer) and join',
      tag: 'companies',
      example: {
        token: 'the secret of the link, 43 characters',
        name: 'Nia Installer',
        password: 'a long password',
      },
      responses: {
        201: {
          description: 'The account is made; sign in with the address and password',
          schema: acceptedInvitationSchema,
        },
        404: { description: 'Unknown, used, withdrawn or run out (invitation_not_found)' },
        409: { description: 'The address has an account: sign in and accept (email_taken)' },
        429: { description: 'Too many tries' },
      },
    }),
    validate('json', tokenBody.merge(joinRequestSchema)),
    async (c) => {
      await limitTries(ctx, clientAddress(c, ctx.env.TRUST_PROXY));
      const body = c.req.valid('json');
      const now = ctx.now();
      const invitation = await openInvitation(db, body.token, now);
      const password_hash = await hashPassword(body.password, ctx.scryptCost);
      const user = await uniqueEmail(() =>
        db.transaction().execute(async (trx) => {
          const made = await trx
            .insertInto('users')
            .values({
              main_email: invitation.email,
              display_name: body.name,
              role: 'installer',
              password_hash,
              created_by: null,
            })
            .returning(['id', 'main_email'])
            .executeTakeFirstOrThrow();
          await accept(trx, invitation, made.id, now);
          return made;
        }),
      );
      return c.json({ email: user.main_email, company: invitation.company }, 201);
    },
  );
  return app;
}
