import { z } from 'zod';
import { USER_SORT_KEYS } from './list-sort-keys.ts';
import { pageOf, sortedListQuerySchema } from './page.ts';

/** User roles: provider staff, installers and site owners (operators). */
export const userRoleSchema = z.enum(['admin', 'installer', 'owner']);
export type UserRole = z.infer<typeof userRoleSchema>;

/** A user as the configuration service answers it (never with a password or hash). */
export const userSchema = z.object({
  id: z.number().int(),
  main_email: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  role: userRoleSchema,
  createdBy: z.number().int().nullable(),
  createdAt: z.string(),
  /** Mail me the alarms of the sites I have access to (off until the user turns it on). */
  alarmMail: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

/** `GET /fleet/user-list/{userId}/{page}` and `GET /users/role/{role}`. */
export const userPageSchema = pageOf(userSchema);

/** The query of every user list: search, page size, sort. */
export const userListQuerySchema = sortedListQuerySchema(USER_SORT_KEYS);

const email = z.string().trim().toLowerCase().email().max(254);
const displayName = z.string().trim().min(1).max(120);
/** A phone number as people write it: 3 to 32 digits, spaces, +, -, ( and ). The app's forms use it too. */
export const PHONE_PATTERN = /^[+0-9 ()-]{3,32}$/;
const phone = z.string().trim().regex(PHONE_PATTERN, 'phone may hold digits, spaces, +, -, ( and ) only');

/**
 * `POST /fleet/users/create-installer` (admin only). Without a password the new installer gets an
 * access code by e-mail and chooses one with `PUT /users/password`.
 */
export const createInstallerRequestSchema = z.object({
  main_email: email,
  name: displayName,
  phone: phone.optional(),
  password: z.string().min(8).max(256).optional(),
});
export type CreateInstallerRequest = z.infer<typeof createInstallerRequestSchema>;

/**
 * `POST /fleet/users/create-owner` (admin or installer): a site owner managed by the caller. The
 * owner gets an access code by e-mail and chooses a password with `PUT /users/password`. Answers
 * 202 `{message}` alike for a new address and for an account the caller cannot see.
 */
export const createOwnerRequestSchema = z.object({
  main_email: email,
  name: displayName,
  phone: phone.optional(),
});
export type CreateOwnerRequest = z.infer<typeof createOwnerRequestSchema>;

/**
 * `PUT /users/{id}`: every field optional; `role` only by an admin. A body with no field is a 400.
 * A new `main_email` is set by an admin, or by the user themself with `current_password`.
 * `alarmMail` turns alarm mail for the user's sites on or off.
 */
export const updateUserRequestSchema = z
  .object({
    main_email: email.optional(),
    name: displayName.optional(),
    phone: phone.nullable().optional(),
    role: userRoleSchema.optional(),
    current_password: z.string().min(1).max(256).optional(),
    alarmMail: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'give at least one field to change' });
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

/**
 * `PUT /users/me/password`: the signed-in user chooses a new password, giving the current one.
 * Every session of the user ends (both services), this one too: the app signs in again with it.
 */
export const ownPasswordChangeSchema = z.object({
  current_password: z.string().min(1).max(256),
  new_password: z.string().min(8, 'choose at least 8 characters').max(256),
});
export type OwnPasswordChange = z.infer<typeof ownPasswordChangeSchema>;

/** `PUT /users/me/profile`: the signed-in user's own name and phone (`phone: null` clears it). */
export const profileUpdateSchema = z.object({
  name: displayName,
  phone: phone.nullable().default(null),
});
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;

/** `POST /fleet/users/access-code`: e-mail an access code to a user the caller manages. */
export const accessCodeRequestSchema = z.object({ main_email: email });
export type AccessCodeRequest = z.infer<typeof accessCodeRequestSchema>;

/** Answer of calls that only start something (an e-mail): 202 with a message. */
export const acceptedSchema = z.object({ message: z.string() });
