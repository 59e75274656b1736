import { z } from 'zod';
import { idParamSchema } from './ids.ts';

/**
 * An installer company's roles for its members: an `admin` invites, removes, gives roles, keeps
 * the company's details and sees every site of the company; an `installer` works on the sites
 * they hold a site role on; a `viewer` reads the sites they are given.
 */
export const companyRoleSchema = z.enum(['admin', 'installer', 'viewer']);
export type CompanyRole = z.infer<typeof companyRoleSchema>;

/** A company role as a sentence says it: "as an admin", "as an installer". */
export function companyRoleWithArticle(role: CompanyRole): string {
  return role === 'admin' || role === 'installer' ? `an ${role}` : `a ${role}`;
}

/** How long an invitation's link works. */
export const INVITATION_DAYS = 14;

/** The largest company logo accepted (PNG or JPEG), in bytes: it travels as base64 in a JSON body. */
export const LOGO_MAX_BYTES = 32 * 1024;

export const logoTypeSchema = z.enum(['image/png', 'image/jpeg']);

/** `PUT /companies/mine/logo`: the image, base64, as printed on the commissioning report. */
export const logoUploadSchema = z.object({
  type: logoTypeSchema,
  data: z
    .string()
    .max(Math.ceil(LOGO_MAX_BYTES / 3) * 4, `the logo may be at most ${LOGO_MAX_BYTES / 1024} KiB`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'not base64'),
});
export type LogoUpload = z.infer<typeof logoUploadSchema>;

/** A company's own details, as its members and company staff read them. */
export const companySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z.string(),
  /** Whether a logo is kept (`GET /companies/{id}/logo` answers it). */
  hasLogo: z.boolean(),
});
export type Company = z.infer<typeof companySchema>;

export const companyMemberSchema = z.object({
  userId: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: companyRoleSchema,
  joinedAt: z.string(),
});
export type CompanyMember = z.infer<typeof companyMemberSchema>;

export const companyInvitationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: companyRoleSchema,
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type CompanyInvitation = z.infer<typeof companyInvitationSchema>;

/** A site offered to a company by its owner (or staff), until the company's admins decide. */
export const siteHandoverSchema = z.object({
  id: z.number().int(),
  siteId: z.number().int(),
  siteName: z.string(),
  siteAddress: z.string(),
  fromCompany: z.string().nullable(),
  toCompany: z.string(),
  requestedBy: z.string().nullable(),
  requestedAt: z.string(),
});
export type SiteHandover = z.infer<typeof siteHandoverSchema>;

/**
 * `GET /companies/mine`: the caller's company, their role in it, its members and (for its admins)
 * its open invitations and the sites offered to it.
 */
export const myCompanySchema = z.object({
  company: companySchema,
  role: companyRoleSchema,
  members: z.array(companyMemberSchema),
  invitations: z.array(companyInvitationSchema),
  handovers: z.array(siteHandoverSchema),
});
export type MyCompany = z.infer<typeof myCompanySchema>;

const companyName = z.string().trim().min(1, 'give the company a name').max(120);

/** `PUT /companies/mine`: the company's name and postal address (as printed on reports). */
export const companyDetailsSchema = z.object({
  name: companyName,
  address: z.string().trim().max(300).default(''),
});
export type CompanyDetails = z.input<typeof companyDetailsSchema>;

/** `POST /companies/mine/invitations`: whom to invite, and their role once they accept. */
export const invitationRequestSchema = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  role: companyRoleSchema,
});
export type InvitationRequest = z.infer<typeof invitationRequestSchema>;

/** `PUT /companies/mine/members/{userId}`: a member's new company role. */
export const memberRoleRequestSchema = z.object({ role: companyRoleSchema });

/** The secret of an invitation link (43 characters of base64url). */
export const invitationTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'not an invitation link');

/** `GET /invitations/{token}`: what an invitation offers, for the one holding its link. */
export const invitationViewSchema = z.object({
  company: z.string(),
  email: z.string(),
  role: companyRoleSchema,
  /** Whether the address has an account: accept it signed in; otherwise create one with it. */
  account: z.boolean(),
  expiresAt: z.string(),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;

/** `POST /invitations/{token}/join`: a new account for an invited address. */
export const joinRequestSchema = z.object({
  name: z.string().trim().min(1).max(120),
  password: z.string().min(8, 'choose at least 8 characters').max(256),
});
export type JoinRequest = z.infer<typeof joinRequestSchema>;

/** Path parameter of a member or invitation. */
export const companyItemParamSchema = z.object({ id: idParamSchema });

/** Answer of `POST /auth/invitations/join`: the account made, and the company it joined. */
export const acceptedInvitationSchema = z.object({ email: z.string(), company: z.string() });

/** `POST /sites/{id}/handover`: the address of a member of the company to hand the site to. */
export const handoverRequestSchema = z.object({ email: z.string().trim().toLowerCase().email().max(254) });
export type HandoverRequest = z.infer<typeof handoverRequestSchema>;
