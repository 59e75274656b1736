import { z } from 'zod';
import { userRoleSchema } from './users.ts';

/**
 * Every error the services answer: `{message, code}`; `field` names a failing input; a 429 says
 * in `retryAfter` how many seconds to wait (also the `Retry-After` header, and in the message).
 */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string(),
  field: z.string().optional(),
  retryAfter: z.number().int().min(1).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Configuration service `POST /auth/v2/login` and the older `POST /auth`. */
export const loginRequestSchema = z.object({
  main_email: z.string().trim().email().max(254),
  password: z.string().min(1).max(256),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** Answer of every v2 login and refresh on both services. */
export const tokenPairSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
});
export type TokenPair = z.infer<typeof tokenPairSchema>;

/** `POST /auth/v2/refresh` on both services. */
export const refreshRequestSchema = z.object({
  refresh_token: z.string().min(1).max(512),
});
export type RefreshRequest = z.infer<typeof refreshRequestSchema>;

/** Monitoring service `POST /auth/v2/configurator-login`: the configuration access token vouches for the user. */
export const configuratorLoginRequestSchema = z.object({
  username: z.string().trim().email().max(254),
  access_token: z.string().min(1),
});
export type ConfiguratorLoginRequest = z.infer<typeof configuratorLoginRequestSchema>;

/** Monitoring service older `POST /auth/fleet-login`: password is base64 of the UTF-8 password. */
export const fleetLoginRequestSchema = z.object({
  username: z.string().trim().email().max(254),
  password: z.string().min(1).max(512),
});
export type FleetLoginRequest = z.infer<typeof fleetLoginRequestSchema>;

/** Answer of the older logins. */
export const legacyTokenSchema = z.object({ accessToken: z.string().min(1) });
export type LegacyToken = z.infer<typeof legacyTokenSchema>;

/** `POST /users/password-reset`: ask for an access code by e-mail. */
export const passwordResetRequestSchema = z.object({
  main_email: z.string().trim().email().max(254),
});

/** `PUT /users/password`: sent as headers, no body. */
export const passwordChangeHeadersSchema = z.object({
  main_email: z.string().trim().email().max(254),
  temp_code: z.string().trim().min(4).max(32),
  new_password: z.string().min(8).max(256),
});
export type PasswordChangeHeaders = z.infer<typeof passwordChangeHeadersSchema>;

/** Who an access token speaks for: the monitoring service's `GET /me`. */
export const principalSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: userRoleSchema,
});
